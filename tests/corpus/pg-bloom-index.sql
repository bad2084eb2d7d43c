-- source: https://www.postgresql.org/docs/current/bloom.html
-- title: bloom — bloom filter index access method
-- author: PostgreSQL Global Development Group (PostgreSQL documentation)
-- database: postgresql
-- note: Compares a seq scan, a 6-column B-tree, a bloom index and six single-column B-trees (BitmapAnd) for an equality query on two non-leading columns, with index sizes; load scaled from 10,000,000 to 1,000,000 rows; the two stand-alone syntax snippets (a 3-column bloom index, CREATE OPERATOR CLASS) are left out; the page never shows CREATE EXTENSION bloom.

CREATE TABLE tbloom AS
   SELECT
     (random() * 1000000)::int as i1,
     (random() * 1000000)::int as i2,
     (random() * 1000000)::int as i3,
     (random() * 1000000)::int as i4,
     (random() * 1000000)::int as i5,
     (random() * 1000000)::int as i6
   FROM
  generate_series(1,1000000);
EXPLAIN ANALYZE SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
CREATE INDEX btreeidx ON tbloom (i1, i2, i3, i4, i5, i6);
SELECT pg_size_pretty(pg_relation_size('btreeidx'));
EXPLAIN ANALYZE SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
CREATE INDEX bloomidx ON tbloom USING bloom (i1, i2, i3, i4, i5, i6);
SELECT pg_size_pretty(pg_relation_size('bloomidx'));
EXPLAIN ANALYZE SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
CREATE INDEX btreeidx1 ON tbloom (i1);
CREATE INDEX btreeidx2 ON tbloom (i2);
CREATE INDEX btreeidx3 ON tbloom (i3);
CREATE INDEX btreeidx4 ON tbloom (i4);
CREATE INDEX btreeidx5 ON tbloom (i5);
CREATE INDEX btreeidx6 ON tbloom (i6);
EXPLAIN ANALYZE SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
