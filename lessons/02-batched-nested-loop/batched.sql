-- The join of nested-loop.sql, its orders sent to customers 50 at a time.
create table customers (id bigint primary key, name text) split into 10 tablets;
create table orders (id bigint primary key, customer_id bigint) split into 1 tablets;
insert into customers select n, 'a customer' from generate_series(1, 200) n;
insert into orders select n, (n * 37) % 200 + 1 from generate_series(1, 200) n;
set yb_bnl_batch_size = 50;
explain (analyze, dist, buffers, costs off)
/*+ nestloop(o c) leading((o c)) */
select o.id, c.name from orders o join customers c on c.id = o.customer_id;
