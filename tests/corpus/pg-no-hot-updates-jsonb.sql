-- source: https://dev.to/mongodb/no-hot-updates-on-jsonb-13k7
-- title: No HOT updates on JSONB (write amplification) performance impact
-- author: Franck Pachot
-- database: postgresql
-- note: Repeats an UPDATE of one JSONB attribute under EXPLAIN (ANALYZE, BUFFERS, WAL) with \watch, before and after adding an expression index and a GIN index on the document, to show HOT updates stop; the MongoDB snippets are left out; SERIALIZE needs PostgreSQL 17+ and \watch repeats until interrupted.

create table users (
  id bigserial primary key,
  data jsonb not null
);
insert into users (data) values (
 jsonb_build_object(
    'name', 'Homer Simpson',
    '{login}',
    jsonb_build_object(
      'last', to_char(current_timestamp, 'YYYY-MM-DD HH24:MI:SS'),
      'count', 0
    )  ,
    'email', jsonb_build_array(
      'donutlover@springfieldusa.com',
      'homerdoh@simpsons.com',
      'lazy.sofa.guy@tvcharacters.net'
    )
  )
 );
explain (analyze, verbose, buffers, wal, serialize text, costs off)
UPDATE users
SET data = jsonb_set(
  data,
  '{login}',
  jsonb_build_object(
    'last', to_char(current_timestamp, 'YYYY-MM-DD'),
    'count', (COALESCE((data->'login'->>'count')::int, 0) + 1)
  )
)
where id=1
\watch
create index on users(
 (data->>'name')
);
CREATE INDEX idx_users_data_email ON users USING GIN (
 (data->'email') jsonb_path_ops
);
