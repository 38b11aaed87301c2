-- Basic DDL and DML: common column types, INSERT, SELECT ... ORDER BY,
-- UPDATE, DELETE and simple errors.
CREATE TABLE items (
  id INT NOT NULL PRIMARY KEY,
  name VARCHAR(40) NOT NULL,
  price DECIMAL(10,2) NOT NULL,
  qty SMALLINT UNSIGNED NOT NULL DEFAULT 0,
  weight DOUBLE NULL,
  big BIGINT NULL,
  note TEXT NULL,
  added DATE NULL,
  seen DATETIME NULL,
  flag TINYINT(1) NOT NULL DEFAULT 0,
  code CHAR(3) NULL,
  UNIQUE KEY uname (name)
);
INSERT INTO items (id, name, price, qty, weight, big, note, added, seen, flag, code) VALUES
  (1, 'apple', 0.50, 100, 0.2, 9000000000, 'fresh', '2024-01-05', '2024-01-05 10:00:00', 1, 'APL'),
  (2, 'banana', 0.25, 150, 0.15, NULL, NULL, '2024-01-06', NULL, 0, 'BAN'),
  (3, 'cherry', 12.00, 5, 1.5, -42, 'per kilo', '2024-02-10', '2024-02-10 08:30:15', 1, NULL),
  (4, 'date', 7.99, 0, NULL, 0, '', NULL, NULL, 0, 'DAT');
INSERT INTO items (id, name, price) VALUES (5, 'elderberry', 3.10);
SELECT id, name, price, qty FROM items ORDER BY id;
SELECT * FROM items ORDER BY id;
SELECT name, price FROM items ORDER BY price DESC, name;
SELECT name FROM items WHERE qty > 0 ORDER BY name;
SELECT id, name FROM items WHERE note IS NULL ORDER BY id;
SELECT id, name FROM items WHERE name LIKE '%an%' ORDER BY id;
SELECT COUNT(*), SUM(qty), MIN(price), MAX(price) FROM items;
UPDATE items SET qty = qty + 10 WHERE price < 1;
SELECT id, qty FROM items ORDER BY id;
UPDATE items SET note = 'none' WHERE note IS NULL;
UPDATE items SET flag = 1 WHERE id = 1;
SELECT id, note, flag FROM items ORDER BY id;
DELETE FROM items WHERE id = 4;
DELETE FROM items WHERE id = 99;
SELECT id FROM items ORDER BY id;
INSERT INTO items (id, name, price) VALUES (1, 'again', 1.00);
INSERT INTO items (id, name, price) VALUES (6, 'apple', 1.00);
SELECT * FROM no_such_table;
SELECT no_such_column FROM items;
INSERT INTO items (id, name, price) VALUES (7, NULL, 1.00);
CREATE TABLE items (id INT PRIMARY KEY);
DROP TABLE no_such_table;
UPDATE items SET price = price * 2 WHERE id IN (1, 2);
SELECT id, price FROM items ORDER BY id LIMIT 2;
SELECT id, price FROM items ORDER BY id LIMIT 2 OFFSET 2;
REPLACE INTO items (id, name, price) VALUES (2, 'blueberry', 4.50);
SELECT id, name, price FROM items ORDER BY id;
DELETE FROM items;
SELECT COUNT(*) FROM items;
DROP TABLE items;
SELECT 1 + 1, 'x', NULL, 1.5, 10 / 4, 7 DIV 2, 7 % 3;
CREATE TABLE t (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(5) NOT NULL,
  n INT NOT NULL DEFAULT 0,
  UNIQUE KEY uname (name)
);
INSERT INTO t (name) VALUES ('a'), ('b');
SELECT LAST_INSERT_ID();
INSERT INTO t (name) VALUES ('c');
SELECT LAST_INSERT_ID();
INSERT INTO t (name, n) VALUES ('a', 5) ON DUPLICATE KEY UPDATE n = n + 1;
INSERT INTO t (name, n) VALUES ('z', 5) ON DUPLICATE KEY UPDATE n = n + 1;
INSERT IGNORE INTO t (name) VALUES ('b');
UPDATE t SET n = n WHERE id = 1;
UPDATE t SET n = 1 WHERE id = 1;
SELECT * FROM t ORDER BY id;
INSERT INTO t (name) VALUES ('toolongname');
SELECT name FROM t WHERE id < 3 UNION SELECT name FROM t WHERE id > 1 ORDER BY name;
SELECT name FROM t WHERE id < 3 UNION ALL SELECT name FROM t WHERE id < 3 ORDER BY name;
SELECT x.name FROM (SELECT name, n FROM t WHERE n > 0) AS x ORDER BY x.name;
SELECT name FROM t a WHERE EXISTS (SELECT 1 FROM t b WHERE b.id = a.id + 1) ORDER BY name;
SELECT COUNT(*) FROM t WHERE name IN ('a', 'b', 'q');
SELECT 1 / 0, 5 MOD 0;
SELECT name, n FROM t ORDER BY n DESC, name LIMIT 1, 2;
SELECT HEX(name), LOWER('ABC'), TRIM('  x  '), CHAR_LENGTH('héllo'), LENGTH('héllo') FROM t WHERE id = 1;
SELECT CAST(n AS CHAR), CAST('2024-01-02' AS DATE), CONVERT('42', SIGNED) FROM t WHERE id = 1;
SELECT GREATEST(1, 5, 3), LEAST('b', 'a'), ABS(-3), CEIL(1.2), FLOOR(-1.2), MOD(10, 3), POWER(2, 10), SQRT(16);
SELECT IF(n > 0, 'pos', 'zero') AS s, n FROM t ORDER BY id;
START TRANSACTION;
INSERT INTO t (name) VALUES ('tx');
ROLLBACK;
SELECT COUNT(*) FROM t;
BEGIN;
DELETE FROM t WHERE name = 'z';
COMMIT;
SELECT name FROM t ORDER BY name;
SELECT DATABASE();
SELECT 'a' = 'A', 'a' < 'b', NULL = NULL, NULL <=> NULL;
SELECT X'41FF' AS x, UNHEX('00FF') AS u;
-- A set operation with a branch that reads one row by its primary key
-- answers every row of the others too.
CREATE TABLE u (id INT PRIMARY KEY, v INT);
INSERT INTO u VALUES (1, 10), (2, 20), (3, 30);
SELECT id FROM u WHERE id > 1 UNION SELECT id FROM u WHERE id = 1 ORDER BY id;
SELECT v FROM u WHERE id = 2 UNION ALL SELECT v FROM u WHERE id = 2;
SELECT id FROM u WHERE id = 3 UNION SELECT id FROM u WHERE id < 3 ORDER BY id DESC;
