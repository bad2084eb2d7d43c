//! Outer joins and joins of three or more tables: each query's rows equal
//! PostgreSQL 15's for the same script (the expected rows below are psql 15's
//! `-A -t` output on a cluster fresh from initdb, each after `@@` and the
//! line of its query).

use crate::psql;

const SCRIPT: &str = r#"create table a (id int primary key, v text);
create table b (id int primary key, a_id int, w int);
create table c (id int, b_id int, z text);
create index on c (b_id);
insert into a select i, 'a'||i from generate_series(1,5) i;
insert into b select i, i%3, i*10 from generate_series(1,6) i;
insert into c values (1, 1, 'x'), (2, 4, 'y'), (3, 9, 'q'), (4, null, 'n');
select a.v, b.w from a left join b on b.a_id = a.id order by 1, 2;
select * from a left join b on b.a_id = a.id and b.w > 30 order by a.id, b.id;
select a.id from a left join b on b.a_id = a.id where b.id is null order by a.id;
select a.id, b.id, c.z from a join b on b.a_id = a.id join c on c.b_id = b.id order by 1, 2, 3;
select * from b right join c on c.b_id = b.id order by c.id;
select b.id, c.id from b full join c on c.b_id = b.id order by b.id, c.id;
select count(*) from a, b, c;
select * from a join b using (id) left join c using (id) order by id;
select id, v, w from a full join b using (id) order by id;
select a.id, count(b.id) from a left join b on b.a_id = a.id group by a.id order by 1;
select a.id, c.z from a left join b on b.a_id = a.id left join c on c.b_id = b.id where a.id < 4 order by 1, 2;
select a.id, b.id from a left join b on a.id < b.id and b.w < 40 where a.id > 2 order by 1, 2;
select c.id, a.v from c left join a on c.b_id = a.id order by 1;
select * from a join b on a.id = b.id order by 3 desc;
select a.id, b.id, c.id from a cross join b cross join c where a.id = b.id and c.id = a.id order by 1;
select distinct a.v from a left join b on a.id = b.a_id order by 1;
select * from a natural join b order by id;
select id, v, w from a natural full join b order by id;"#;

const POSTGRES: &str = r#"@@8
a1|10
a1|40
a2|20
a2|50
a3|
a4|
a5|
@@9
1|a1|4|1|40
2|a2|5|2|50
3|a3|||
4|a4|||
5|a5|||
@@10
3
4
5
@@11
1|1|x
1|4|y
@@12
1|1|10|1|1|x
4|1|40|2|4|y
|||3|9|q
|||4||n
@@13
1|1
2|
3|
4|2
5|
6|
|3
|4
@@14
120
@@15
1|a1|1|10|1|x
2|a2|2|20|4|y
3|a3|0|30|9|q
4|a4|1|40||n
5|a5|2|50||
@@16
1|a1|10
2|a2|20
3|a3|30
4|a4|40
5|a5|50
6||60
@@17
1|2
2|2
3|0
4|0
5|0
@@18
1|x
1|y
2|
2|
3|
@@19
3|
4|
5|
@@20
1|a1
2|a4
3|
4|
@@21
5|a5|5|2|50
4|a4|4|1|40
3|a3|3|0|30
2|a2|2|2|20
1|a1|1|1|10
@@22
1|1|1
2|2|2
3|3|3
4|4|4
@@23
a1
a2
a3
a4
a5
@@24
1|a1|1|10
2|a2|2|20
3|a3|0|30
4|a4|1|40
5|a5|2|50
@@25
1|a1|10
2|a2|20
3|a3|30
4|a4|40
5|a5|50
6||60"#;

#[test]
fn joins_return_postgresqls_rows() {
    psql::assert_rows(SCRIPT, POSTGRES);
}

#[test]
fn a_chain_explains_each_join_it_ran() {
    let (report, errors) = psql::run(&format!(
        "{SCRIPT}\nexplain (analyze, costs off, timing off, summary off) \
         select a.id, c.z from a left join b on b.a_id = a.id left join c on c.b_id = b.id;"
    ));
    assert!(errors.is_empty(), "{errors:?}");
    let plan = report
        .statements
        .last()
        .unwrap()
        .outcome
        .explain
        .clone()
        .unwrap();
    let text = plan.join("\n");
    // b has no index on a_id: hashed; c has one on b_id: looked up per row.
    assert!(
        text.contains("Hash Left Join (actual rows=7 loops=1)"),
        "{text}"
    );
    assert!(text.contains("Hash Cond: (b.a_id = a.id)"), "{text}");
    assert!(
        text.contains("Nested Loop Left Join (actual rows=7 loops=1)"),
        "{text}"
    );
    assert!(
        text.contains("Index Scan using c_b_id_idx on c (actual rows=0 loops=7)"),
        "{text}"
    );
    assert!(text.contains("Index Cond: (b_id = b.id)"), "{text}");
}
