-- Article 003 at its own scale: 1 000 rows under a primary key in ASCending order.
create table demo ( id int, primary key(id ASC) );
insert into demo ( id ) select generate_series(1,1000);
vacuum demo;
explain (analyze, buffers, dist) select id from demo order by id ASC;
explain (analyze, buffers, dist) select id from demo order by id DESC;
