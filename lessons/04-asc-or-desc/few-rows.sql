-- When the direction matters less: few rows, or a key declared in the order the query reads.
-- (VACUUM lets PostgreSQL answer from the index alone, as in asc-desc.sql; YugabyteDB ignores it.)
create table demo ( id int, primary key(id ASC) );
insert into demo ( id ) select generate_series(1,1000);
vacuum demo;
explain (analyze, buffers, dist) select id from demo where id in (100,200,300) order by id DESC;
create table demo_desc ( id int, primary key(id DESC) );
insert into demo_desc ( id ) select generate_series(1,1000);
vacuum demo_desc;
explain (analyze, buffers, dist) select id from demo_desc order by id DESC;
