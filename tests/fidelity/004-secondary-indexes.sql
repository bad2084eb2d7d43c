-- Article 004 (the cost of secondary indexes): the harness prepends
-- `create table demo (n bigint);` and N `create index` statements (0 to 10).
insert into demo select generate_series(1,10000);
update demo set n=-n;
delete from demo;
vacuum demo;
