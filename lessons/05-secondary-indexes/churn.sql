-- Article 004's update and delete, at 1 000 rows, on a table with one index.
create table demo (n bigint) split into 1 tablets;
create index demo_n on demo(n asc);
insert into demo select generate_series(1,1000);
update demo set n = -n;
delete from demo;
explain (analyze, buffers, dist) select * from demo;
