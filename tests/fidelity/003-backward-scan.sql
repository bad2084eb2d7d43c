-- Article 003 (ASC or DESC, backward scans): a 1000-row table with an ASC key.
create table demo ( id int, primary key(id ASC) );
insert  into demo ( id ) select generate_series (1,1000);
explain (analyze, buffers) select id from demo order by id ASC;
explain (analyze, buffers) select id from demo order by id DESC;
explain (analyze, buffers) select id from demo where id in (100,200,300) order by id DESC;
