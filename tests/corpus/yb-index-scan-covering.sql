-- source: https://dev.to/yugabyte/index-scan-in-yugabytedb-5a2l
-- title: Index Scan in YugabyteDB
-- author: Franck Pachot
-- database: yugabytedb
-- note: Times 50000 lookups (PL/pgSQL DO loops) through the primary key, a secondary index, and a covering INCLUDE index on a 1000-row table split into 1 tablet, to show the extra table read of a non-covering secondary Index Scan.

create table demo (
 a int constraint demo_a_pk primary key,
 b int, c int) split into 1 tablets;
create index demo_b_si on demo(b) split into 1 tablets;
insert into demo (a, b, c)
 select n, n, n from generate_series(1,1000) n;
explain (analyze, verbose, summary false)
 select a from demo where a=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform a from demo where a=42;
 end loop; end; $$;
explain (analyze, verbose, summary false)
 select c from demo where a=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform c from demo where a=42;
 end loop; end; $$;
explain (analyze, verbose, summary false)
 select b from demo where b=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform b from demo where b=42;
 end loop; end; $$;
explain (analyze, verbose, summary false)
 select c from demo where b=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform c from demo where b=42;
 end loop; end; $$;
explain (analyze, verbose, summary false)
 select a from demo where b=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform a from demo where b=42;
 end loop; end; $$;
create index demo_b_si_covering on demo(b)
 include (a)
 split into 1 tablets;
explain (analyze, verbose, summary false)
 select a from demo where b=42;
\timing on
do $$ begin for i in 1..50000 loop
 perform a from demo where b=42;
 end loop; end; $$;
