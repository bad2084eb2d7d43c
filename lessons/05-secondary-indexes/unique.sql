-- Article 004's unique question, at 1 000 rows: one table per kind of index.
create table t_plain (n bigint) split into 1 tablets;
create table t_nonunique (n bigint) split into 1 tablets;
create index t_nonunique_n on t_nonunique(n asc);
create table t_unique (n bigint) split into 1 tablets;
create unique index t_unique_n on t_unique(n asc);
insert into t_plain select generate_series(1,1000);
insert into t_nonunique select generate_series(1,1000);
insert into t_unique select generate_series(1,1000);
