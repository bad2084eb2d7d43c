-- source: https://docs.yugabyte.com/stable/develop/data-modeling/secondary-indexes-ysql/
-- title: Designing secondary indexes in YugabyteDB
-- author: YugabyteDB documentation (Yugabyte, Inc.)
-- database: yugabytedb
-- note: A 45-row census table with a range primary key, then a secondary index and a covering INCLUDE index on zipcode compared with EXPLAIN (ANALYZE, DIST), and the index listed with \d+, pg_indexes and pg_stat_user_indexes; the published CREATE TABLE lacks its closing semicolon, added here.

CREATE TABLE census(
   id int,
   name varchar(255),
   age int,
   zipcode int,
   employed boolean,
   PRIMARY KEY(id ASC)
);
INSERT INTO public.census ( id,name,age,zipcode,employed ) VALUES
  (1,'Zachary',55,94085,True),    (2,'James',56,94085,False),    (3,'Kimberly',50,94084,False),
  (4,'Edward',56,94085,True),     (5,'Barry',56,94084,False),    (6,'Tyler',45,94084,False),
  (7,'Nancy',47,94085,False),     (8,'Sarah',52,94084,True),     (9,'Nancy',59,94084,False),
  (10,'Diane',51,94083,False),    (11,'Ashley',42,94083,False),  (12,'Jacqueline',58,94085,False),
  (13,'Benjamin',49,94084,False), (14,'James',48,94083,False),   (15,'Ann',43,94083,False),
  (16,'Aimee',47,94085,True),     (17,'Michael',49,94085,False), (18,'Rebecca',40,94085,False),
  (19,'Kevin',45,94085,True),     (20,'James',45,94084,False),   (21,'Sandra',60,94085,False),
  (22,'Kathleen',40,94085,True),  (23,'William',42,94084,False), (24,'James',42,94083,False),
  (25,'Tyler',50,94085,False),    (26,'James',49,94085,True),    (27,'Kathleen',55,94083,True),
  (28,'Zachary',55,94083,True),   (29,'Rebecca',41,94085,True),  (30,'Jacqueline',49,94085,False),
  (31,'Diane',48,94083,False),    (32,'Sarah',53,94085,True),    (33,'Rebecca',55,94083,True),
  (34,'William',47,94085,False),  (35,'William',60,94085,True),  (36,'Sarah',53,94085,False),
  (37,'Ashley',47,94084,True),    (38,'Ashley',54,94084,False),  (39,'Benjamin',42,94083,False),
  (40,'Tyler',47,94085,True),     (41,'Michael',42,94084,False), (42,'Diane',50,94084,False),
  (43,'Nancy',51,94085,False),    (44,'Rebecca',56,94085,False), (45,'Tyler',41,94085,True);
select id from census where zipcode=94085;
create index idx_zip on census(zipcode ASC);
explain (analyze, dist, costs off) select id from census where zipcode=94085;
create index idx_zip2 on census(zipcode ASC) include(id);
explain (analyze, dist, costs off) select id from census where zipcode=94085;
\d+ census
SELECT * FROM pg_indexes WHERE tablename = 'census' ;
SELECT * FROM pg_stat_user_indexes WHERE relname = 'census';
