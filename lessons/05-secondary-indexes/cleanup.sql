-- Who cleans up? Half the rows deleted, then VACUUM (PostgreSQL) and a full compaction (YugabyteDB).
create table demo (n bigint) split into 1 tablets;
create index demo_n on demo(n asc);
insert into demo select generate_series(1,1000);
\flush
update demo set n = -n;
delete from demo where n >= -500;
explain (analyze, buffers, dist) select n from demo where n < 0;
vacuum demo;
\compact
explain (analyze, buffers, dist) select n from demo where n < 0;
