-- source: https://docs.yugabyte.com/stable/explore/going-beyond-sql/data-sharding/
-- title: Configurable data sharding
-- author: YugabyteDB documentation (Yugabyte, Inc.)
-- database: yugabytedb
-- note: Six rows in a range-sharded (ASC) and a hash-sharded table, compared for full scan, point lookup and range query with EXPLAIN (ANALYZE, DIST): read requests per tablet and rows scanned (the docs assume a 3-node RF3 cluster).

CREATE TABLE user_range (
    id int,
    name VARCHAR,
    PRIMARY KEY(id ASC)
);
INSERT INTO user_range VALUES (1, 'John Wick'), (2, 'Harry Potter'), (3, 'Bruce Lee'),
                              (4, 'India Jones'), (5, 'Vito Corleone'), (6, 'Jack Sparrow');
SELECT * FROM user_range ;
EXPLAIN (ANALYZE, DIST, COSTS OFF) SELECT * FROM user_range ;
explain (analyze, dist, costs off) select * from user_range where id=5;
explain (analyze, dist, costs off) select * from user_range where id>2 and id<6;
CREATE TABLE user_hash (
    id int,
    name VARCHAR,
    PRIMARY KEY(id HASH)
);
INSERT INTO user_hash VALUES (1, 'John Wick'), (2, 'Harry Potter'), (3, 'Bruce Lee'),
                             (4, 'India Jones'), (5, 'Vito Corleone'), (6, 'Jack Sparrow');
SELECT * FROM user_hash ;
EXPLAIN (ANALYZE, DIST, COSTS OFF) SELECT * FROM user_hash ;
explain (analyze, dist, costs off) select * from user_hash where id=5;
explain (analyze, dist, costs off) select * from user_hash where id>2 and id<6;
