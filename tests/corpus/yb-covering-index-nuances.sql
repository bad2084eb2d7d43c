-- source: https://dev.to/yugabyte/covering-index-nuances-which-columns-to-cover-where-order-by-limit-select-1f4m
-- title: Covering Index nuances: which columns to cover (WHERE, ORDER BY, LIMIT, SELECT)?
-- author: Franck Pachot
-- database: yugabytedb
-- note: Replaces index after index (CREATE INDEX then DROP INDEX) for one prepared multi-criteria query to show what covering WHERE, ORDER BY and SELECT columns saves in seeks, nexts and read requests (EXPLAIN ANALYZE DIST DEBUG); load scaled from 1,008,000 to 984,000 rows (generate_series(1,42) changed to (1,41)).

drop table if exists orders;

create extension if not exists pgcrypto;

create table orders (
 primary key(order_id)
 ,order_id uuid default gen_random_uuid()
 ,order_date timestamptz default clock_timestamp()
 ,customer_id text
 ,description text
 ,quantity int
);

with fruits(desc1) as ( values ('bananas'),('orange'),('cherry') ),
     colors (desc2) as ( values ('blue'),('red'),('green'),('yellow'),('gray'),('pink'),('brown'),('black') )
insert into orders(customer_id,description,quantity)
select customer, desc1||' '||desc2||'s',100*random() from fruits, colors, generate_series(1,1000) customer, generate_series(1,41)
;
prepare demo as
select * from orders
where customer_id = $1 
  and quantity>$2 
  and description like $3
order by quantity, order_date
;
explain (costs off, analyze, dist, debug, summary off) 
         execute demo(42,20,'%banana%')
;
create index orders1 on orders (customer_id);
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
create index orders2 on orders (customer_id, quantity asc);
drop index orders1;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
create index orders3
           on orders (customer_id, quantity asc, order_date asc);
drop index orders2;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
create index orders4
           on orders (customer_id, quantity,order_date)
           include (description);
drop index orders3;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
create index orders5
           on orders (customer_id, quantity,order_date
                      , description
           );
drop index orders4;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
explain (costs off, analyze, summary off, verbose)
         execute demo(42,20,'%banana%')
;
create index orders6
           on orders (customer_id, quantity,order_date
                      , description, order_id
           );
drop index orders5;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
create index orders7
           on orders (customer_id, quantity,order_date
                      , description, order_id
           ) where description like '%banana%' ;
drop index orders6;
explain (costs off, analyze, dist, debug, summary off)
         execute demo(42,20,'%banana%')
;
explain (costs off, analyze, dist, debug, summary off)
select * from orders
where customer_id in ('42','24','22','44','142','124','122','144')
  and quantity=1 and description like '%banana%'
;
