-- source: https://dev.to/yugabyte/bitmap-scan-in-yugabytedb-1id
-- title: Bitmap Scan in YugabyteDB
-- author: Franck Pachot
-- database: yugabytedb
-- note: Three single-column (x, id) indexes on 1M rows: a conjunctive predicate uses one index plus a Remote Filter, versus INTERSECT of three index scans and a self-join hinted to Batched Nested Loop, counting read requests; needs the orafce and pgcrypto extensions (dbms_random, gen_random_uuid).

create extension if not exists pgcrypto;
create extension if not exists orafce;

create table demo ( 
 id uuid default gen_random_uuid() primary key
 , a int, b int, c int, x text
);

create index on demo(a, id);
create index on demo(b, id);
create index on demo(c, id);

insert into demo(a,b,c,x) 
 select n%2, n%23, n%3, dbms_random.string('p',1000) x
 from generate_series(1,1000000) n;

analyze demo;
select count(*) from demo;
select count(*) from demo where a=1;
select count(*) from demo where b=1;
select count(*) from demo where c=1;
select count(*) from demo where a=1 and b=1 and c=1;
set yb_enable_optimizer_statistics to on;
explain (analyze, costs off, dist)
 select * from demo where a=1 and b=1 and c=1
;
explain (analyze, costs off, dist)
 select * from demo where a=1
 intersect
 select * from demo where b=1
 intersect
 select * from demo where c=1
;
explain (analyze, costs off, dist)
/*+ Set(yb_bnl_batch_size 1024) */
 select demo.* from demo
 join demo as demo_a using(id)
 join demo as demo_b using(id)
 join demo as demo_c using(id)
 where demo_a.a=1 and demo_b.b=1 and demo_c.c=1
;
