-- A write-heavy load in the spirit of article 002 (iibench), scaled down: the primary
-- key grows in insert order, three secondary indexes get random values, and rows
-- arrive 200 per statement, 20 statements. Then one lookup, and a checkpoint.
-- The LSM is scaled down with the data: one tablet per table or index, a 32 kB
-- memtable and 4 kB SST blocks. The pg profile ignores these five settings.
set num_tablets = 1;
set write_buffer_size = '32kB';
set block_size = '4kB';
set index_block_size = '4kB';
set filter_block_size = '4kB';
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
  from generate_series(1, 200)
\watch c=20
-- Find where customer 123456789 would go: the walk an insert makes in that index.
explain (analyze, buffers, dist, costs off)
  select id from purchases where customer = 123456789;
\checkpoint
