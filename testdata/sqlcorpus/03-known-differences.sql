-- Known differences between HandlerDB and MariaDB 10.11 (findings for the
-- SQL fidelity issue). The .out holds MariaDB's answers; the deviation line
-- before a statement says why HandlerDB's answer differs. Remove the line
-- (and move the statement to another script) once HandlerDB matches.
-- include: shop.inc
CREATE TABLE t (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(5) NOT NULL,
  n INT NOT NULL DEFAULT 0,
  UNIQUE KEY uname (name)
);
INSERT INTO t (name) VALUES ('a'), ('b'), ('c');
SELECT o.id, SUM(i.qty * i.unit_price) AS total
  FROM orders o JOIN order_items i ON i.order_id = o.id
  GROUP BY o.id
  HAVING SUM(i.qty * i.unit_price) > 40
  ORDER BY total DESC;
CREATE VIEW order_totals AS
  SELECT o.id AS order_id, o.customer_id, o.status, SUM(i.qty * i.unit_price) AS total
  FROM orders o JOIN order_items i ON i.order_id = o.id
  GROUP BY o.id, o.customer_id, o.status;
SELECT order_id, total FROM order_totals WHERE status = 'shipped' ORDER BY order_id;
SELECT AVG(qty) FROM order_items;
SELECT TRUNCATE(2.345, 1);
SELECT IFNULL(shipped, 'never') FROM orders ORDER BY id LIMIT 4;
SHOW CREATE TABLE customers;
DESCRIBE orders;
SHOW COLUMNS FROM t;
SHOW INDEX FROM t;
SELECT * FROM customers WHERE id = 'x';
SELECT CAST('12abc' AS UNSIGNED);
SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id WITH ROLLUP;
SELECT @@sql_mode;
SET sql_mode = '';
INSERT INTO t (name) VALUES ('toolongname');
SELECT * FROM t ORDER BY id;
SET sql_mode = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION';
-- deviation: the column name of _binary 'abc' is the expression text; MariaDB names it abc
SELECT _binary 'abc';
TRUNCATE TABLE t;
CREATE TABLE p (
  id INT PRIMARY KEY,
  e ENUM('small','medium','large') NULL,
  ts DATETIME(3) NULL,
  j JSON NULL,
  u BIGINT UNSIGNED NULL
);
INSERT INTO p VALUES (1, 'small', '2024-05-06 07:08:09.123', '{"a": 1, "b": [1, 2]}', 18446744073709551615);
INSERT INTO p VALUES (2, 'large', '2024-05-07 00:00:00', '[]', 0);
SELECT id, j FROM p ORDER BY id;
SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'p' ORDER BY ORDINAL_POSITION;
SELECT id, JSON_EXTRACT(j, '$.a') FROM p ORDER BY id;
SELECT ts + INTERVAL 1 DAY, TIME(ts) FROM p ORDER BY id;
-- deviation: the error (1690) is MariaDB's, but sent before the result set; MariaDB sends the column line (u + 1) first
SELECT u + 1 FROM p WHERE id = 1;
INSERT INTO p (id, e) VALUES (5, 'huge');
-- deviation: LEAD(x, n, default) is accepted; MariaDB 10.11 has no default argument and answers 1064
SELECT id, LEAD(id, 1, -1) OVER (ORDER BY id) FROM p ORDER BY id;
CREATE TABLE ea (id INT PRIMARY KEY, v INT NOT NULL);
INSERT INTO ea VALUES (1, 1), (2, 2);
INSERT INTO ea (id) VALUES (4);
-- deviation: a scalar subquery returning 2 rows fails before the result set; MariaDB sends the column line (x) first, then error 1242
SELECT (SELECT id FROM ea) AS x;
-- deviation: the error (1242) is MariaDB's, but sent before the result set; MariaDB sends the column line (COUNT(*)) first
SELECT COUNT(*) FROM ea WHERE v = (SELECT v FROM ea);
-- deviation: ORDER BY a position past the select list says in 'SELECT'; MariaDB says in 'ORDER BY'
SELECT id, v FROM ea ORDER BY 3;
