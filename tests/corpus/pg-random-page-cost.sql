-- source: https://dev.to/aws-heroes/postgresql-with-modern-storage-what-about-a-lower-randompagecost-5b7f
-- title: PostgreSQL with modern storage: what about a lower random_page_cost?
-- author: Franck Pachot
-- database: postgresql
-- note: Finds where the planner switches between Index Scan, Bitmap Heap Scan and Seq Scan on a 100000-row table for random_page_cost 4 and 1.1, first with EXPLAIN (ANALYZE, BUFFERS) then with a DO loop collecting JSON plans; uses \dconfig (psql 15+) and \c.

\dconfig *page_cost
\c
drop table if exists demo;
create table demo ( id bigserial primary key , val int );
create index demo_val on demo (val asc);
insert into demo(val) select random()*100000 from generate_series(1,100000);
vacuum analyze demo;
select reltuples, relpages
           from pg_class where relname = 'demo'
;
explain (analyze, buffers, summary off) select * from demo where id <= 50000;
explain (analyze, buffers, summary off) select * from demo where id < 60000;
set random_page_cost=1.1;
explain (analyze, buffers, summary off)
           select * from demo where id < 50000
;
explain (analyze, buffers, summary off)
           select * from demo where id < 60000
;
explain (analyze, buffers, summary off)
           select * from demo where id < 70000
;
set random_page_cost=4;
explain (analyze, buffers, summary off)
           select * from demo where val < 38000
;
explain (analyze, buffers, summary off)
           select * from demo where val < 39000
;
set random_page_cost=1.1;
explain (analyze, buffers, summary off)
           select * from demo where val < 16000
;
explain (analyze, buffers, summary off)
           select * from demo where val < 17000
;
explain (analyze, buffers, summary off)
                   select * from demo where val < 57000
;
\c
set random_page_cost=1.1;
create temporary table if not exists plans( val float, sql text, plan json );
do $$
 declare
  sql text;
  plan json;
 begin
  for i in 1..100 loop
   sql=format('explain (format json) select * from demo where val < %s',i*1000);
   execute sql into plan;
   insert into plans (val, sql, plan) values (i, sql, plan);
  end loop;
 end;
$$;
with plans as (
select val, plan->0->'Plan'->>'Node Type' scan, (plan->0->'Plan'->>'Total Cost')::float cost, sql from plans
) select scan, min(val) min_val,max(val) max_val, min(cost) min_cost, max(cost) max_cost from plans group by scan order by min_cost ;
