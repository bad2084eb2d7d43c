-- Article 001 (Batched Nested Loop): a 2000-row table in 10 hash tablets joined
-- to itself through a CTE. The article's shell loop writes the batch size into
-- the hint, Set(yb_bnl_batch_size '$b'); here it comes from the session, so
-- one file serves every value:
--   npm run sim -- tests/fidelity/001-batched-nested-loop.sql --profile yb \
--     --sweep yb_bnl_batch_size=1,10,100,200,400,1000 --set network=multi-az
-- (add --set ysql_request_limit=100, or --set network=multi-region).
create table demo ( id bigint primary key, x int) split into 10 tablets;
insert into demo select generate_series(1,2000), 0 ;
set yb_enable_expression_pushdown to on;
explain (analyze, dist, buffers, costs off)
/*+ nestloop(a b) leading((a b)) */
with a as (select * from demo)
select * from a join demo b using(id) where b.x=0;
