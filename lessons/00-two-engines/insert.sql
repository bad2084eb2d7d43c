-- Keys arriving in order, into a B+tree (pg) and an LSM (yb).
-- A small memtable (yb) so that it fills and flushes within 2 000 rows.
set write_buffer_size = '16kB';
create table t (id int primary key, v int);
insert into t select generate_series(1, 2000), 0;
explain (analyze, buffers, dist, costs off) select * from t where id = 1500;
