-- source: https://dev.to/franckpachot/b-tree-block-split-whats-the-impact-1i9c
-- title: B-tree block split: what's the impact?
-- author: Franck Pachot
-- database: postgresql
-- note: Inserts random UUIDs one row at a time (EXPLAIN (ANALYZE, BUFFERS, WAL) then pgstatindex, repeated by \watch) to see leaf splits and new B-tree levels in WAL bytes and buffers; the first two blocks inspect demo_pkey before the script creates it; uuidv4() needs PostgreSQL 18 and \watch repeats until interrupted.

create extension if not exists pageinspect;
\x
select * from bt_metap('demo_pkey');
\x
create extension if not exists pgstattuple;
\x
select * from pgstatindex('demo_pkey');
\x
-- create a table with an index (the primary key)
drop table demo;
create table demo ( id uuid primary key);

-- get B-tree statistics
create extension if not exists pgstattuple;
select * from pgstatindex('demo_pkey');
create extension if not exists pageinspect;
select * from bt_metap('demo_pkey');

-- insert a row with random value for the indexed column,
-- display the index statistics and repeat
\x
explain ( analyze, buffers, wal, costs off )
insert into demo (id) values ( uuidv4() )
\;
select * from pgstatindex('demo_pkey')
\watch i=0.01
