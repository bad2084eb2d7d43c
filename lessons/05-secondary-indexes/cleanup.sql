-- Who cleans up? Half the rows deleted, then VACUUM (PostgreSQL) and a full compaction (YugabyteDB).
create table demo (n bigint) split into 1 tablets;
create index demo_n on demo(n asc);
insert into demo select generate_series(1,1000);
\flush
update demo set n = -n;
delete from demo where n >= -500;
-- 1 000 small rows: PostgreSQL would read them all (Seq Scan) or through a bitmap; turn both off to watch the index-only scan.
set enable_seqscan = off;
set enable_bitmapscan = off;
explain (analyze, buffers, dist) select n from demo where n < 0;
vacuum demo;
\compact
explain (analyze, buffers, dist) select n from demo where n < 0;
