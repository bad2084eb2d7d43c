-- The join of nested-loop.sql, all 200 orders in one batch, at most 40 operations a request.
-- (ysql_request_limit is a tablet server flag in YugabyteDB; IndexLab lets a script set it.)
create table customers (id bigint primary key, name text) split into 10 tablets;
create table orders (id bigint primary key, customer_id bigint) split into 1 tablets;
insert into customers select n, 'a customer' from generate_series(1, 200) n;
insert into orders select n, (n * 37) % 200 + 1 from generate_series(1, 200) n;
set yb_bnl_batch_size = 200;
set ysql_request_limit = 40;
explain (analyze, dist, buffers, costs off)
/*+ nestloop(o c) leading((o c)) */
select o.id, c.name from orders o join customers c on c.id = o.customer_id;
