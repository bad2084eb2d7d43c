-- Article 000 at its own scale: 1 000 000 rows (10 000 inserted 100 times), the
-- newest 50 000 read before and after VACUUM. Takes a few seconds in the page.
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000)
\watch c=100 i=0.01
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 50000;
vacuum demo;
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 50000;
