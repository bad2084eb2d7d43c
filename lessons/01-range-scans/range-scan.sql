-- A range scan on a B+tree and on an LSM (article 000, at 4 000 rows).
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,4000);
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 2500;
vacuum demo;
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 2500;
