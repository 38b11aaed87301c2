-- DDL that real schemas use: temporary tables (one session), generated
-- columns, CHECK constraints, JSON, FULLTEXT indexes, FLOAT(M,D).
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO t VALUES (1, 'stored');
CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, w INT, KEY kw (w));
INSERT INTO t VALUES (1, 10), (2, 20);
SELECT * FROM t ORDER BY id;
SELECT id FROM t WHERE w = 20;
SHOW CREATE TABLE t;
SHOW TABLES;
SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
DESCRIBE t;
DROP TABLE t;
SELECT * FROM t ORDER BY id;
CREATE TEMPORARY TABLE t2 SELECT * FROM t;
SELECT * FROM t2;
CREATE TEMPORARY TABLE t3 LIKE t;
SHOW CREATE TABLE t3;
INSERT INTO t3 VALUES (5, 'x');
SELECT * FROM t3;
DROP TEMPORARY TABLE t;
DROP TEMPORARY TABLE t3;
DROP TEMPORARY TABLE t3;
DROP TABLE t2;
SELECT * FROM t2;
SELECT * FROM t ORDER BY id;
CREATE TABLE g (id INT PRIMARY KEY, a INT, b INT AS (a * 2) VIRTUAL, c INT GENERATED ALWAYS AS (a + 1) STORED, s VARCHAR(20) AS (CONCAT('x', a)) PERSISTENT, KEY kc (c));
INSERT INTO g (id, a) VALUES (1, 1), (2, 2);
INSERT INTO g VALUES (3, 3, 6, 4, 'x3');
INSERT INTO g (id, a, b) VALUES (4, 4, 8);
UPDATE g SET c = 1 WHERE id = 1;
UPDATE g SET a = 10 WHERE id = 1;
SELECT * FROM g ORDER BY id;
SELECT id FROM g WHERE c = 11;
SHOW CREATE TABLE g;
DESCRIBE g;
-- deviation: DEFAULT for a generated column is refused with 1906; MariaDB accepts it
INSERT INTO g VALUES (5, 5, DEFAULT, DEFAULT, DEFAULT);
CREATE TABLE ck (id INT PRIMARY KEY, a INT, b INT, CONSTRAINT pos CHECK (b > 0), CHECK (a < 100), CHECK (a <> 7));
-- deviation: a CHECK expression is printed in go-mysql-server's words where they differ: NOT((`a` = 7)) for `a` <> 7
SHOW CREATE TABLE ck;
INSERT INTO ck VALUES (1, 1, 1);
INSERT INTO ck VALUES (2, 1, -1);
INSERT INTO ck VALUES (3, 200, 1);
INSERT INTO ck VALUES (4, 7, 1);
INSERT INTO ck VALUES (5, NULL, NULL);
UPDATE ck SET b = 0 WHERE id = 1;
SELECT * FROM ck ORDER BY id;
-- deviation: ALTER TABLE ... ADD CONSTRAINT reports 0 rows affected; MariaDB copies the table and reports its 2 rows
ALTER TABLE ck ADD CONSTRAINT small CHECK (id < 1000);
ALTER TABLE ck DROP CONSTRAINT pos;
-- deviation: NOT((`a` = 7)) for `a` <> 7, as above
SHOW CREATE TABLE ck;
CREATE TABLE ck2 (id INT PRIMARY KEY, a INT CHECK (a > 0));
-- deviation: a column-level CHECK is a table-level CONSTRAINT_<n>: MariaDB names it after the column (`ck2.a` in this error) and prints it on the column's line
INSERT INTO ck2 VALUES (1, -1);
CREATE TABLE j (id INT PRIMARY KEY, doc JSON);
INSERT INTO j VALUES (1, '{"a": 1,  "b":[1,2]}'), (2, '[]'), (3, NULL);
INSERT INTO j VALUES (4, 'not json');
SELECT id, doc FROM j ORDER BY id;
-- deviation: JSON_EXTRACT('[]', '$.a') returns []; MariaDB returns NULL
SELECT id, JSON_EXTRACT(doc, '$.a'), JSON_EXTRACT(doc, '$.zz') FROM j ORDER BY id;
-- deviation: JSON_LENGTH('[]') is NULL; MariaDB says 0
SELECT id, JSON_LENGTH(doc), JSON_TYPE(doc) FROM j ORDER BY id;
SELECT id FROM j WHERE JSON_EXTRACT(doc, '$.a') = 1;
SHOW CREATE TABLE j;
DESCRIBE j;
SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'j' ORDER BY ORDINAL_POSITION;
CREATE TABLE ft (id INT PRIMARY KEY, title VARCHAR(100), body TEXT, FULLTEXT KEY fb (body), FULLTEXT (title, body));
INSERT INTO ft VALUES (1, 'hello world', 'the quick brown fox'), (2, 'other', 'lazy dogs');
SHOW CREATE TABLE ft;
SELECT id FROM ft WHERE body LIKE '%fox%';
ALTER TABLE ft ADD FULLTEXT INDEX ft2 (title);
CREATE FULLTEXT INDEX ft3 ON ft (body);
DROP INDEX ft2 ON ft;
ALTER TABLE ft DROP INDEX fb;
SHOW CREATE TABLE ft;
-- deviation: MATCH ... AGAINST is refused (1105 no matching Full-Text index); HandlerDB keeps FULLTEXT indexes but does not search them
SELECT id FROM ft WHERE MATCH(body) AGAINST ('fox');
CREATE TABLE fl (id INT PRIMARY KEY, f FLOAT(7,2), d DOUBLE(10,3), g FLOAT, h DOUBLE);
INSERT INTO fl VALUES (1, 3.14159, 2.71828, 1.5, 2.5), (2, -12345.678, 1234567.8915, 0.1, 0.2);
SELECT * FROM fl ORDER BY id;
SHOW CREATE TABLE fl;
DESCRIBE fl;
