-- Article 000 (range scans in B-tree vs LSM), run as the article writes it.
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000)
\watch c=100 i=0.01

explain (analyze, buffers, costs off, summary off)
           select * from demo
            where value < now()
            order by value desc limit 50000;
vacuum demo;
explain (analyze, buffers, costs off, summary off)
           select * from demo
            where value < now()
            order by value desc limit 50000;
