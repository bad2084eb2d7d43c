-- source: https://dev.to/aws-heroes/postgresql-index-correlation-with-update-2a2k
-- title: PostgreSQL index Correlation with UPDATE
-- author: Franck Pachot
-- database: postgresql
-- note: Shows how an UPDATE that moves rows lowers pg_stats correlation and flips an ORDER BY LIMIT query between index scans, fixed by VACUUM FULL, CLUSTER or a composite index; uses \gset and a psql variable to write pg_statistic (needs superuser).

create extension if not exists pgcrypto;
drop table if exists demo;
create temporary table demo ( id uuid default gen_random_uuid() primary key,  a int, b int, c int default 0 );
create index demoa on demo(a asc);
create index demob on demo(b asc);
insert into demo (a,b) select a, b from generate_series(1,10) a, lateral ( select generate_series(1,100*a) b ) b ;
vacuum analyze demo;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
update demo set c=c+1 where a =1;
vacuum demo;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
select schemaname,tablename,attname,correlation,* from pg_stats where tablename='demo';
select * from pg_class where relname='demo';
select string_agg(
format('update pg_statistic set stanumbers%s=%L where starelid=%s and staattnum=%s and stakind%s=3;'
,n,array[correlation],starelid,staattnum,n
),e'\n' order by staattnum) as restore_correlation
 from pg_stats
 natural join (select oid as starelid, relname as tablename, relnamespace from pg_class) c
 natural join (select oid as relnamespace, nspname as schemaname from pg_namespace) n
 natural join (select attrelid as starelid, attname, attnum as staattnum from pg_attribute) a
 cross join (select generate_series(1,5) n) g
where tablename='demo' and attname='a';
\gset
select ctid,* from demo  where a=1  order by b limit 10;
analyze demo;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
drop index demob;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
select schemaname,tablename,attname,correlation from pg_stats where tablename='demo'
;
select :'restore_correlation';
:restore_correlation
select schemaname,tablename,attname,correlation from
           pg_stats where tablename='demo'
;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
vacuum full demo;
analyze demo;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
select ctid,* from demo  where a=1  order by b limit 10
;
create extension if not exists pageinspect;
select * from bt_metap('demoa');
select substr(data,1,30), itemoffset, ctid, itemlen, nulls, vars, dead , *
           from bt_page_items(get_raw_page('demoa', 1))
           where data < '02' order by data
;
cluster demo using demoa;
analyze demo;
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
select ctid,* from demo  where a=1  order by b limit 10
;
create index demoab on demo(a asc, b asc);
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
create index demob on demo(b asc);
update demo set c=c+1 where a =1;
vacuum analyze demo;
select schemaname,tablename,attname,correlation from pg_stats where tablename='demo';
explain (analyze, buffers)
           select * from demo where a=1
           order by b limit 10
;
