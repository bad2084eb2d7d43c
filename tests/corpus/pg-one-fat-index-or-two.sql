-- source: https://dev.to/yugabyte/one-fat-index-or-two-indexes-on-each-columns-postgresql-vs-yugabytedb-ngj
-- title: One fat index, or two indexes on each columns? PostgreSQL vs. YugabyteDB
-- author: Franck Pachot
-- database: postgresql
-- note: PostgreSQL half of the article: two single-column indexes (BitmapAnd) versus one composite index on 1M rows, compared with EXPLAIN (ANALYZE, BUFFERS) after DROP INDEX / CREATE INDEX.

CREATE TABLE foo (id bigserial, bar int, baz int);
CREATE INDEX foobar ON foo(bar asc);
CREATE INDEX foobaz ON foo(baz asc);
insert into foo (bar, baz) select n%97, n%101
     from generate_series(1,1000000) n;
vacuum analyze foo;
explain (analyze, buffers, costs off)
               SELECT * FROM foo WHERE bar = 2 ;
explain (analyze, buffers, costs off)
               SELECT * FROM foo WHERE  baz = 4;
explain (analyze, buffers, costs off)
              SELECT * FROM foo WHERE bar = 2 AND baz = 4;
DROP INDEX foobar;
DROP INDEX foobaz;
CREATE INDEX foobarbaz ON foo(bar asc, baz asc);
explain (analyze, buffers, costs off)
               SELECT * FROM foo WHERE bar = 2 ;
explain (analyze, buffers, costs off)
              SELECT * FROM foo WHERE bar = 2 AND baz = 4;
explain (analyze, buffers, costs off)
               SELECT * FROM foo WHERE  baz = 4;
