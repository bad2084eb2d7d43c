-- Packed rows: the same 1 000 rows stored two ways, then read backward.
create table packed ( id int, a int, b int, c int, primary key(id ASC) );
insert into packed select n, n, n * 2, n * 3 from generate_series(1,1000) n;
set yb_enable_packed_row = off;
create table spread ( id int, a int, b int, c int, primary key(id ASC) );
insert into spread select n, n, n * 2, n * 3 from generate_series(1,1000) n;
explain (analyze, dist) select * from packed order by id DESC;
explain (analyze, dist) select * from spread order by id DESC;
