-- source: http://use-the-index-luke.com/sql/example-schema/postgresql/3-minute-test
-- title: PostgreSQL Example Scripts for “3-Minute Test”
-- author: Markus Winand (Use The Index, Luke!)
-- database: postgresql
-- note: Table setup (50000 rows, PL/pgSQL random_string) and question 1 of the 3-minute test: a date index unusable under EXTRACT(YEAR ...) versus usable with a date range, both as count(*); only the setup and question 1 were retrievable from the stored copy of this (older) revision of the page, questions 2-5 are not included.

CREATE TABLE tbl (
  id          NUMERIC NOT NULL,
  date_column DATE,
  a           NUMERIC,
  b           NUMERIC,
  text        VARCHAR(255),
  state       CHAR(1),
  PRIMARY KEY (id)
);

CREATE OR REPLACE FUNCTION random_string(minlen NUMERIC, maxlen NUMERIC)
RETURNS VARCHAR(1000)
AS
$$
DECLARE
  rv VARCHAR(1000) := '';
  i  INTEGER := 0;
  len INTEGER := 0;
BEGIN
  IF maxlen < 1 OR minlen < 1 OR maxlen < minlen THEN
    RETURN rv;
  END IF;

  len := floor(random()*(maxlen-minlen)) + minlen;

  FOR i IN 1..floor(len) LOOP
    rv := rv || chr(97+CAST(random() * 25 AS INTEGER));
  END LOOP;
  RETURN rv;
END;
$$ LANGUAGE plpgsql;

INSERT INTO tbl
SELECT generate_series
     , CURRENT_DATE - generate_series
     , MOD(generate_series,1234)
     , CAST(RANDOM() * 10 AS NUMERIC), random_string(20, 20)
     , CASE MOD(generate_series,5) WHEN 0 THEN 'X' ELSE 'A' END
FROM generate_series(1, 50000);

--VACUUM ANALYZE tbl;

CREATE INDEX tbl_idx ON tbl (date_column);
SELECT COUNT(*)
  FROM tbl
 WHERE EXTRACT(YEAR FROM date_column) = 2016;
SELECT COUNT(*)
  FROM tbl
 WHERE date_column >= DATE'2016-01-01'
   AND date_column <  DATE'2017-01-01';
