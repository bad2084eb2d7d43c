-- source: https://dev.to/aws-heroes/dead-tuple-space-reused-without-vacuum-10fd
-- title: Postgres dead tuple space reused without vacuum
-- author: Franck Pachot
-- database: postgresql
-- note: Watches an UPDATE and a DELETE leave dead tuples in heap and B-tree pages (pageinspect), how page pruning and index-entry killing reuse that space without VACUUM, then VACUUM and REINDEX; statements whose output the article shows without the statement were not added.

select version();
create temporary table demo
           ( id bigint, value text )
           with ( autovacuum_enabled=off )
;
create unique index demo_pkey on demo (id)
           include (value)
;
insert into demo
           select generate_series(0,15), lpad('x',500,'x')
;
create extension if not exists pageinspect;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30), lp_len
           from heap_page_items(get_raw_page('demo', 0))
;
select substr(data,1,30), itemoffset, ctid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
select ctid, id, xmin, xmax, id, substr(value,1,30) , length(value)
           from demo
;
update demo set value=upper(value) where id=2
;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30), lp_len
           from heap_page_items(get_raw_page('demo', 0))
;
select t_ctid, lp, lp_len, lp_flags, t_xmin, t_xmax, substr(t_data,1,42)
           from heap_page_items(get_raw_page('demo', 1))
;
select substr(data,1,42), itemoffset, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
select xmin from (
 select xmin from pg_replication_slots
 union all
 select catalog_xmin from pg_replication_slots
 union all
 select backend_xmin from pg_stat_replication
 union all
 select backend_xid from pg_stat_activity
 union all
 select backend_xmin from pg_stat_activity
 union all
 select transaction from pg_prepared_xacts
) order by age(xmin) nulls last limit 1
;
select ctid, id, xmin, xmax, id, substr(value,1,30) , length(value)
           from demo
;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30), lp_len
           from heap_page_items(get_raw_page('demo', 0))
;
select substr(data,1,42), itemoffset, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
explain (analyze, buffers)
           select * from demo where id=2
;
select substr(data,1,42), itemoffset, ctid, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 3))
           order by data
;
explain (analyze, buffers)
select * from demo where id=2;
select substr(data,1,42), itemoffset, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
insert into demo
           select generate_series(16,1000), lpad('y',50,'y')
;
insert into demo
           select generate_series(3001,4000), lpad('y',30,'y')
;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30)
           from heap_page_items(get_raw_page('demo', 0))
;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
delete from demo
           where id <= 13 -- #0d
;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30)
           from heap_page_items(get_raw_page('demo', 0))
;
select substr(data,1,42), itemoffset, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
explain (analyze, buffers)
           select from demo
           where id <= 13
;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30)
           from heap_page_items(get_raw_page('demo', 0))
;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
vacuum demo;
select t_ctid, lp, lp_flags, t_xmin, t_xmax, substr(t_data,1,30)
           from heap_page_items(get_raw_page('demo', 0))
;
select substr(data,1,42), itemoffset, ctid, htid, itemlen, nulls, vars, dead
           from bt_page_items(get_raw_page('demo_pkey', 1))
           order by data
;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
insert into demo
           select generate_series(5000,5013), lpad('x',500,'x')
;
reindex index concurrently demo_pkey;
select relname,pg_table_size(oid),pg_size_pretty(pg_table_size(oid))
           from pg_class where relname like 'demo%'
;
