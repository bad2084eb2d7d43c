-- source: https://dev.to/aws-heroes/index-only-scan-on-functional-indexes-9o2
-- title: Index Only Scan on Functional Indexes
-- author: Franck Pachot
-- database: postgresql
-- note: Compares an expression index, an expression index INCLUDE-ing the base column, and a stored generated column index to get an Index Only Scan for upper(username) lookups on a 1000-row table.

set enable_bitmapscan=false;
create table demo (id bigint, username text);
insert into demo select n,'Number'||to_hex(n) from generate_series(1,1000) n;
vacuum demo;
select * from demo where username='Number42';
explain analyze select * from demo
           where upper(username)='NUMBER42';
create index demo_upper on demo( (upper(username)) );
explain analyze select upper(username) from demo
           where upper(username)='NUMBER42';
create index demo_upper_covering on demo( (upper(username))) include (username );
analyze demo;
explain analyze select upper(username) from demo
           where upper(username)='NUMBER42';
alter table demo add column upper_username text generated always as (upper(username)) stored;
create index demo_upper_stored on demo( upper_username );
analyze demo;
explain analyze select upper_username from demo
           where upper_username='NUMBER42';
