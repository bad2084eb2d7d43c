-- Article 002 (LSM vs B-tree under a write-heavy load), iibench-like: the primary
-- key grows in insert order, three secondary indexes get random values, rows are
-- inserted 1000 per statement. The harness runs it with a large and a small cache.
create table purchases (
  id bigserial primary key,
  price bigint,
  customer bigint,
  product bigint,
  note text
);
create index purchases_price on purchases (price);
create index purchases_customer on purchases (customer);
create index purchases_product on purchases (product);
insert into purchases (price, customer, product, note)
  select (random() * 1000000000)::bigint, (random() * 1000000000)::bigint,
         (random() * 1000000000)::bigint, 'iibench row'
  from generate_series(1, 1000)
\watch c=200
