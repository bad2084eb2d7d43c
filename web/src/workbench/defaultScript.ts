// The script the workbench opens with: article 000 at 10 000 rows.
export const DEFAULT_SCRIPT = `-- Article 000 at 10 000 rows: a range scan on a B+tree and on an LSM.
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000);
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 500;
`;
