-- source: https://dev.to/yugabyte/one-fat-index-or-two-indexes-on-each-columns-postgresql-vs-yugabytedb-ngj
-- title: One fat index, or two indexes on each columns? PostgreSQL vs. YugabyteDB
-- author: Franck Pachot
-- database: yugabytedb
-- note: YugabyteDB half of the article: the same 1M-row table with two single-column LSM indexes versus one composite and one covering index, read requests seen with EXPLAIN (ANALYZE, DIST).

CREATE TABLE foo (id bigserial, bar int, baz int);
CREATE INDEX foobar ON foo(bar asc);
CREATE INDEX foobaz ON foo(baz asc);
insert into foo (bar, baz) select n%97, n%101
     from generate_series(1,1000000) n;
analyze foo;
set yb_enable_optimizer_statistics=on;
explain (analyze, dist, costs off)
               SELECT * FROM foo WHERE bar = 2 ;
explain (analyze, dist, costs off)
               SELECT * FROM foo WHERE  baz = 4;
explain (analyze, dist, costs off)
              SELECT * FROM foo WHERE bar = 2 AND baz = 4;
DROP INDEX foobar;
DROP INDEX foobaz;
CREATE INDEX foobarbaz ON foo(bar asc, baz asc);
explain (analyze, dist, costs off)
               SELECT * FROM foo WHERE bar = 2 ;
explain (analyze, dist, costs off)
              SELECT * FROM foo WHERE bar = 2 AND baz = 4;
explain (analyze, dist, costs off)
               SELECT * FROM foo WHERE  baz = 4;
CREATE INDEX foobar_covering ON foo(bar asc, baz asc) include (id);
DROP INDEX foobarbaz;
explain (analyze, dist, costs off)
               SELECT * FROM foo WHERE  baz = 4;
