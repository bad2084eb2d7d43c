-- Article 002 at its own scale: 200 000 rows, 1 000 per statement (tests/fidelity/002-iibench.sql),
-- then the same lookup and checkpoint as the lesson's script. Takes a few seconds in the page.
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
explain (analyze, buffers, dist, costs off)
  select id from purchases where customer = 123456789;
\checkpoint
