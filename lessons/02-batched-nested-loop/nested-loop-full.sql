-- The same join at article 001's scale: 2 000 orders, 2 000 customers in 10 tablets.
-- customers is spread over 10 tablets; orders sits in one.
create table customers (id bigint primary key, name text) split into 10 tablets;
create table orders (id bigint primary key, customer_id bigint) split into 1 tablets;
insert into customers select n, 'a customer' from generate_series(1, 2000) n;
insert into orders select n, (n * 37) % 2000 + 1 from generate_series(1, 2000) n;
explain (analyze, dist, buffers, costs off)
/*+ nestloop(o c) leading((o c)) */
select o.id, c.name from orders o join customers c on c.id = o.customer_id;
