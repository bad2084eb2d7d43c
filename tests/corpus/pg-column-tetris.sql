-- source: https://github.com/postgres-ai/postgres-howtos/blob/main/0084_how_to_find_the_best_order_of_columns_to_save_on_storage.md
-- title: How to find the best order of columns to save on storage ("Column Tetris")
-- author: Nikolay Samokhvalov (Postgres.ai, #PostgresMarathon)
-- database: postgresql
-- note: Table size (\dt+) of the same 1M rows with columns in a padding-heavy order versus a reordered one (81 MB vs 57 MB); the interactive postgres_dba report (:dba, then p1) used between the steps is left out because it needs that tool installed.

create table t(
  id int4 primary key,
  created_at timestamptz,
  is_public boolean,
  modified_at timestamptz,
  verified boolean,
  published_at timestamptz,
  score int2
);

insert into t
select
  i,
  clock_timestamp(),
  true,
  clock_timestamp(),
  true,
  clock_timestamp(),
  0
from generate_series(1, 1000000) as i;

vacuum analyze t;
\dt+ t
drop table t;

create table t(
  is_public boolean,
  verified boolean,
  score int2,
  id int4 primary key,
  created_at timestamptz,
  modified_at timestamptz,
  published_at timestamptz
);

insert into t
select
  true,
  true,
  0::int2,
  i::int4,
  clock_timestamp(),
  clock_timestamp(),
  clock_timestamp()
from generate_series(1, 1000000) as i;

vacuum analyze t;
\dt+ t
