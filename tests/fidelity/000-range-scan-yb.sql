-- Article 000 (range scans in B-tree vs LSM), YugabyteDB part, as the article runs it.
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000)
\watch c=100 i=0.01
-- The article forced a full compaction (yb-ts-cli compact_all_tablets).
\compact demo

explain (analyze, dist, debug, costs off, summary off)
           select * from demo
            where value < now()
            order by value desc limit 50000;
explain (analyze, dist, debug, costs off, summary off)
           select * from demo
            where value < now()
            order by value desc limit 50000;
set yb_fetch_row_limit=50000;
explain (analyze, dist, debug, costs off, summary off)
select * from demo
 where value < now()
 order by value desc limit 50000;
