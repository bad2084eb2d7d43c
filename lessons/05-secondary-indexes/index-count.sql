-- Article 004 at 1 000 rows: the same rows into a table without an index, then into one with three.
create table plain (n bigint) split into 1 tablets;
create table indexed (n bigint) split into 1 tablets;
create index indexed_1 on indexed(n asc);
create index indexed_2 on indexed(n asc);
create index indexed_3 on indexed(n asc);
insert into plain select generate_series(1,1000);
insert into indexed select generate_series(1,1000);
