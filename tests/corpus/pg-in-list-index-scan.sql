-- source: https://dev.to/yugabyte/in-index-scan-in-postgresql-17-and-yugabytedb-lsm-tree-jci
-- title: IN() Index Scan in PostgreSQL 17 and YugabyteDB LSM Tree
-- author: Franck Pachot
-- database: postgresql
-- note: PostgreSQL part of the article (run on PG16 and PG17): buffers and idx_scan counts for a 42-value IN() list on a (value, id) index over 1M rows, and the same list as a VALUES CTE join; the YugabyteDB EXPLAIN (DIST, DEBUG) part is left out.

create table demo ( id bigserial primary key, value int );
create index on demo ( value asc , id asc);
insert into demo ( value ) select generate_series(1,1000000);
vacuum analyze demo;
\! sleep 5
select seq_scan, seq_tup_read, idx_scan, idx_tup_fetch
           from pg_stat_user_tables where relid='demo'::regclass
;
explain (analyze, buffers) select id
           from demo
           where value in (83, 31, 11, 19, 137, 149, 79, 167, 3, 47, 59, 5, 113, 71, 53, 163, 109, 101, 2, 107, 17, 179, 131, 43, 23, 67, 151, 97, 139, 61, 73, 157, 29, 89, 13, 127, 41, 7, 103, 173, 181, 37)
;
select seq_scan, seq_tup_read, idx_scan, idx_tup_fetch
           from pg_stat_user_tables where relid='demo'::regclass
;
explain (analyze, buffers) select id
           from demo
           where value in (83, 31, 11, 19, 137, 149, 79, 167, 3, 47, 59, 5, 113, 71, 53, 163, 109, 101, 2, 107, 17, 179, 131, 43, 23, 67, 151, 97, 139, 61, 73, 157, 29, 89, 13, 127, 41, 7, 103, 173, 181, 37)
;
select seq_scan, seq_tup_read, idx_scan, idx_tup_fetch from pg_stat_user_tables where relid='demo'::regclass;
explain (analyze, buffers) select id
 from demo
 where value in (100083, 100031, 100011, 100019, 100137, 100149, 100079, 100167, 1003, 100047, 100059, 1005, 100113, 100071, 100053, 100163, 100109, 100101, 1002, 100107, 100017, 100179, 100131, 10043, 10023, 10067, 100151, 10097, 100139, 10061, 10073, 100157, 10029, 10089, 10013, 100127, 10041, 1007, 100103, 100173, 100181, 10037)
;
explain (analyze, buffers, summary off)
 with my_values(value) as (
 values (100083), (100031), (100011), (100019), (100137), (100149), (100079), (100167), (1003), (100047), (100059), (1005), (100113), (100071), (100053), (100163), (100109), (100101), (1002), (100107), (100017), (100179), (100131), (10043), (10023), (10067), (100151), (10097), (100139), (10061), (10073), (100157), (10029), (10089), (10013), (100127), (10041), (1007), (100103), (100173), (100181), (10037)
 )
 select id from demo where value in ( select value from my_values );
