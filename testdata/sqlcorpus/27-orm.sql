-- What ORMs (GORM, Django, SQLAlchemy) met as silent wrong answers or
-- errors MariaDB does not give (issue: silent wrong answers and ORMs).
CREATE TABLE users (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(50), code TEXT);
CREATE TABLE pets (id INT PRIMARY KEY AUTO_INCREMENT, user_id INT, name VARCHAR(50), born DATE, KEY (user_id));
INSERT INTO users (name, code) VALUES ('subquery_1', 'subquery_1'), ('subq', 'a_b'), ('SUBQUERY_2', 'axb'), ('x%y', 'x%%');
INSERT INTO pets (user_id, name, born) VALUES (1, 'p1', '2020-01-01'), (1, 'p2', '2021-01-01'), (2, 'p3', '2022-01-01'), (1, 'p4', '2019-05-05'), (NULL, 'stray', '2018-01-01');
-- LIKE: prefixes, case, escapes, with and without an index.
SELECT name FROM users WHERE name LIKE 'subquery%' ORDER BY id;
SELECT name FROM users WHERE name LIKE 'subquer%' ORDER BY id;
SELECT name FROM users WHERE name LIKE 'SUBQUER%' ORDER BY id;
SELECT name FROM users WHERE code LIKE 'subquery%' ORDER BY id;
SELECT name FROM users WHERE code LIKE 'a\_b' ORDER BY id;
SELECT name FROM users WHERE code LIKE 'x\%%' ORDER BY id;
SELECT name FROM users WHERE name LIKE 'x\%y' ORDER BY id;
-- ORDER BY (1), plain and in a UNION.
SELECT name FROM users ORDER BY (1);
(SELECT name FROM users WHERE id < 3) UNION (SELECT name FROM pets WHERE id < 3) ORDER BY (1) DESC;
-- A window function in a derived table, SELECT * and an outer WHERE.
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY born) rnn FROM pets) t WHERE rnn <= 2 ORDER BY id;
SELECT * FROM (SELECT pets.*, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id DESC) AS rnn FROM pets WHERE user_id IN (1, 2)) t WHERE rnn <= 1 ORDER BY id;
SELECT name, rnn FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY id) rnn FROM pets) t WHERE rnn > 2 AND born > '2019-01-01' ORDER BY rnn;
-- JSON paths and comparisons.
CREATE TABLE j (id INT PRIMARY KEY, v JSON);
INSERT INTO j VALUES (1, '{"a":1}'), (2, '[1,2]'), (3, '{"b":{"a":2}}'), (4, '{}'), (5, '[{"a":1},{"b":2}]'), (6, '"a"'), (7, 'null'), (8, '{"a":null}');
SELECT id FROM j WHERE JSON_CONTAINS_PATH(v, 'one', '$."a"') ORDER BY id;
SELECT id FROM j WHERE JSON_CONTAINS_PATH(v, 'all', '$.a', '$.b') ORDER BY id;
SELECT id, JSON_CONTAINS_PATH(v, 'one', '$[0]') FROM j ORDER BY id;
SELECT id FROM j WHERE v = JSON_EXTRACT('{}', '$') ORDER BY id;
SELECT id, v FROM j WHERE v = JSON_EXTRACT(v, '$') ORDER BY id;
SELECT id, JSON_EXTRACT(v, '$[1]."b"') FROM j ORDER BY id;
SELECT JSON_EXTRACT('{"a":"bob"}', '$.a') = 'bob', JSON_EXTRACT('{"a":"bob"}', '$.a') = '"bob"', JSON_EXTRACT('{"a":[1, 2]}', '$.a') = '[1, 2]', JSON_EXTRACT('{"a":1}', '$.a') = 1, JSON_EXTRACT('{"a":"bob"}', '$.a') IN ('bob', 'x');
-- NOT EXISTS where the correlated condition is NULL; EXISTS over a key prefix.
SELECT users.id, pets.id FROM users LEFT OUTER JOIN pets ON (users.id = pets.user_id) WHERE NOT EXISTS (SELECT 1 AS a FROM pets U0 WHERE U0.user_id = pets.id LIMIT 1) ORDER BY users.id, pets.id;
SELECT users.id FROM users WHERE NOT EXISTS (SELECT 1 FROM pets WHERE pets.user_id = users.id) ORDER BY id;
SELECT pets.id FROM pets WHERE NOT EXISTS (SELECT 1 FROM users WHERE users.id = pets.user_id) ORDER BY id;
CREATE TABLE k (c0 INT, c1 INT, PRIMARY KEY (c0, c1));
INSERT INTO k VALUES (1, 1), (2, 2), (2, 3);
SELECT * FROM k WHERE EXISTS (SELECT 1 FROM k AS x WHERE x.c0 = k.c0) ORDER BY c0, c1;
SELECT * FROM k WHERE c0 IS NOT NULL AND EXISTS (SELECT 1 FROM k AS x WHERE x.c0 = k.c0 LIMIT 1) ORDER BY c0, c1;
SELECT id FROM users ORDER BY id LIMIT 18446744073709551615 OFFSET 1;
-- Correlated EXISTS in UPDATE and DELETE; a scalar subquery in HAVING.
UPDATE users SET code = 'has pets' WHERE EXISTS (SELECT 1 FROM pets WHERE pets.user_id = users.id AND pets.born > '2020-06-01');
DELETE FROM pets WHERE NOT EXISTS (SELECT 1 FROM users WHERE users.id = pets.user_id);
SELECT id, code FROM users ORDER BY id;
SELECT user_id, COUNT(*) c FROM pets GROUP BY user_id HAVING COUNT(*) > (SELECT COUNT(*) FROM users WHERE id > 3) ORDER BY user_id;
-- DDL: DROP CONSTRAINT of a unique key, RENAME COLUMN by case only.
CREATE TABLE a (id INT PRIMARY KEY, name VARCHAR(20), n INT UNSIGNED, UNIQUE KEY uq_name (name));
ALTER TABLE a DROP CONSTRAINT uq_name;
ALTER TABLE a RENAME COLUMN name TO Name;
SHOW CREATE TABLE a;
-- Variables, labels, DO, unsigned arithmetic below zero.
SELECT @@transaction_isolation;
SELECT @@tx_isolation;
SELECT @@nosuchvariable;
SELECT column_name, Table_Name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'a' ORDER BY ordinal_position;
SELECT 1 , 2;
DO 1 + 1, SLEEP(0);
INSERT INTO a VALUES (1, 'x', 0);
UPDATE a SET n = n - 1;
-- deviation: the error (1690) is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT n - 1 FROM a;
-- Insert ids as LAST_INSERT_ID() shows them.
CREATE TABLE ai (id INT PRIMARY KEY AUTO_INCREMENT, k VARCHAR(10) UNIQUE, n INT);
INSERT INTO ai (k, n) VALUES ('a', 1), ('b', 2);
INSERT INTO ai (id, k, n) VALUES (10, 'c', 3), (DEFAULT, 'd', 4);
SELECT LAST_INSERT_ID();
INSERT INTO ai (k, n) VALUES ('a', 5), ('e', 6) ON DUPLICATE KEY UPDATE n = n + 1;
SELECT LAST_INSERT_ID() = (SELECT id FROM ai WHERE k = 'e');
-- (InnoDB's gaps after a duplicate are not HandlerDB's: the ids below are
-- compared with the rows, not as numbers.)
REPLACE INTO ai (k, n) VALUES ('e', 9);
SELECT LAST_INSERT_ID() = (SELECT id FROM ai WHERE k = 'e');
SELECT k, n FROM ai ORDER BY k;
-- What Django sends to MariaDB 10.5 and later: INSERT ... RETURNING,
-- information_schema.CHECK_CONSTRAINTS with TABLE_NAME, LIMIT 2^64-1.
CREATE TABLE dj (id INT PRIMARY KEY AUTO_INCREMENT, app VARCHAR(20), v JSON CHECK (JSON_VALID(v)), n INT, CONSTRAINT n_pos CHECK (n > 0));
INSERT INTO dj (app, v, n) VALUES ('a', '{}', 1) RETURNING dj.id;
INSERT INTO dj (app, v, n) VALUES ('b', '[1]', 2), ('c', '{"ord": 2}', 3) RETURNING id, app, CONCAT(app, '!') AS z;
INSERT INTO dj (app, v, n) VALUES ('d', '{"ord": -1}', 4) RETURNING *;
INSERT INTO dj (app, v, n) SELECT CONCAT(app, '2'), v, n FROM dj WHERE id < 3 RETURNING id, app;
INSERT INTO dj (app, v, n) VALUES ('e', '{}', 0) RETURNING id;
SELECT table_name, constraint_name, level, check_clause FROM information_schema.check_constraints WHERE constraint_schema = DATABASE() AND table_name = 'dj' ORDER BY constraint_name;
SELECT c.constraint_name AS column_name FROM information_schema.check_constraints AS c WHERE c.table_name = 'dj' AND LOWER(c.check_clause) = 'json_valid(`' + LOWER(c.constraint_name) + '`)' AND c.constraint_schema = DATABASE() ORDER BY 1;
ALTER TABLE dj DROP CONSTRAINT IF EXISTS n_pos;
ALTER TABLE dj DROP CONSTRAINT IF EXISTS n_pos;
SELECT id FROM dj ORDER BY app LIMIT 18446744073709551615 OFFSET 4;
SELECT id FROM dj WHERE JSON_EXTRACT(v, '$."ord"') IS NOT NULL ORDER BY JSON_EXTRACT(v, '$."ord"');
SELECT id FROM dj WHERE id IN (SELECT U0.id FROM dj U0 WHERE JSON_UNQUOTE(JSON_EXTRACT(U0.v, '$."ord"')) = JSON_EXTRACT('2', '$'));
(SELECT id FROM dj WHERE id = 1);
-- LIKE inside a subquery the planner unnests (SQLAlchemy's IN (SELECT ...)).
SELECT id FROM users WHERE id IN (SELECT user_id FROM pets WHERE name LIKE 'P%') ORDER BY id;
SELECT id FROM users WHERE EXISTS (SELECT 1 FROM pets WHERE pets.user_id = users.id AND pets.name LIKE 'p_') ORDER BY id;
