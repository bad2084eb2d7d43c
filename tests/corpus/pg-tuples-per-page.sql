-- source: https://github.com/postgres-ai/postgres-howtos/blob/main/0066_how_many_tuples_can_be_inserted_in_a_page.md
-- title: How many tuples can be inserted in a page
-- author: Nikolay Samokhvalov (Postgres.ai, #PostgresMarathon)
-- database: postgresql
-- note: Counts tuples on heap page 0 via (ctid::text::point)[0] for 1000-row tables of int4, boolean and zero columns (226, 226 and 291 per 8 KiB page); as published, t0 is created again without a DROP twice, so those CREATE TABLE AS fail and the following queries read the previous t0.

create table t0 as select 1 as id;
select ctid, id from t0;
show block_size;
create table t0 as select i
from generate_series(1, 1000) as i;
select count(*)
from t0
where (ctid::text::point)[0] = 0;
select pg_column_size(i) from t0 limit 1;
drop table t0;
create table t0 as select true
from generate_series(1, 1000) as i;
select count(*)
  from t0
  where (ctid::text::point)[0] = 0;
create table t0 as select
from generate_series(1, 1000) as i;
select count(*)
from t0
where (ctid::text::point)[0] = 0;
