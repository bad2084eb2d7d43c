-- source: https://dev.to/yugabyte/clustering-factor-for-yugabytedb-index-scan-correlation-between-secondary-indexes-and-the-primary-key-1fia
-- title: Clustering Factor for YugabyteDB Index Scan: correlation between secondary indexes and the primary key
-- author: Franck Pachot
-- database: yugabytedb
-- note: Loads 1,000,000 rows with a timestamp column (10000-row INSERT repeated by \watch c=100) and reads 50000 rows through ascending and descending secondary indexes to see how correlation with the range primary key changes seeks and table read requests; also a covering index, a leading() hint, and a DESC primary key.

create table demo (
   primary key (id asc)
 , id    bigserial 
 , value timestamptz default clock_timestamp()
 , rand  float default random()
);
create index demo_value_desc on demo ( value desc );
create index demo_value_asc  on demo ( value asc  );
insert into demo 
 select from generate_series(1,10000)
\watch c=100 i=0.01
explain (analyze, dist, debug, costs off, summary off)
select value from demo
 where value < now()
 order by value asc limit 50000;
explain (analyze, dist, debug, costs off, summary off)
select * from demo
 where value < now()
 order by value asc limit 50000;
explain (analyze, dist, debug, costs off, summary off)
select * from demo
 where value < now()
 order by value desc limit 50000;
drop index demo_value_desc;
drop index demo_value_asc;
create index demo_value_id_rand on demo (value desc, id)
           include (rand);
explain (analyze, dist, debug, costs off, summary off)
select id from demo
 where value < now()
 order by value desc limit 50000;
explain (analyze, dist, debug, costs off, summary off)
/*+ leading((ids demo)) */
with ids as (
 select id from demo
 where value < now()
 order by value desc limit 50000
), demo as (
 select * from demo
 where demo.id between (select min(id) from ids)
                   and (select max(id) from ids)
 order by value desc limit 50000
)
select * from ids join demo using (id)
order by value desc limit 50000
;
drop table if exists demo;
create table demo (
   primary key (id desc)
 , id    bigserial 
 , value timestamptz default clock_timestamp()
 , rand  float default random()
);
create index demo_value_desc on demo ( value desc );
insert into demo 
 select from generate_series(1,10000)
\watch c=100 i=0.01
explain (analyze, dist, debug, costs off, summary off)
select id from demo
 where value < now()
 order by value desc limit 50000;
