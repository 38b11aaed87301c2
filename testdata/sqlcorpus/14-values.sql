-- Value conversions in expressions, as MariaDB 10.11 makes them. SHOW
-- WARNINGS follows every statement that warns.
CREATE TABLE p (
  id INT NOT NULL PRIMARY KEY,
  v INT NULL,
  e ENUM('small','medium','large') NULL,
  s SET('x','y','z') NULL,
  u BIGINT UNSIGNED NULL,
  b BIGINT NULL
);
INSERT INTO p VALUES (1, 0, 'medium', 'x,z', 18446744073709551615, 9223372036854775807),
  (2, 1, NULL, '', 0, -9223372036854775808), (3, 12, 'large', 'y', 5, 5);
-- ENUM and SET values are labels in string functions, indexes in numbers.
SELECT id, HEX(e), CONCAT(e), CONCAT(e, '!'), LENGTH(e), UPPER(e), e + 0 FROM p ORDER BY id;
SELECT id, HEX(s), CONCAT('[', s, ']'), LENGTH(s), s + 0 FROM p ORDER BY id;
SELECT id FROM p WHERE e = 'medium';
SELECT id FROM p WHERE CONCAT(e) = 'large';
-- CHAR(N) is bytes.
SELECT HEX(CHAR(0)), LENGTH(CHAR(0)), HEX(CONCAT(CHAR(0), CHAR(1))), HEX(CHAR(65, 66)), HEX(CHAR(256)), HEX(CHAR(1, NULL, 2));
SELECT CHAR(72, 105);
-- CAST of a string takes the digits it starts with.
SELECT CAST('12abc' AS UNSIGNED);
SHOW WARNINGS;
SELECT CAST('12abc' AS SIGNED);
SHOW WARNINGS;
SELECT CAST(' 42 ' AS SIGNED), CAST('7' AS UNSIGNED);
SELECT CAST('abc' AS SIGNED);
SHOW WARNINGS;
SELECT CAST('-1' AS UNSIGNED);
SHOW WARNINGS;
-- A number compared with a string that is no number.
SELECT id FROM p WHERE v = 'x' ORDER BY id;
SHOW WARNINGS;
SELECT id FROM p WHERE v = '12abc' ORDER BY id;
SHOW WARNINGS;
SELECT id FROM p WHERE id = '1x';
SHOW WARNINGS;
SELECT id FROM p WHERE v = '12' ORDER BY id;
SELECT id FROM p WHERE id = 'x';
-- deviation: HandlerDB warns (1292 Truncated incorrect DECIMAL value: 'x') where MariaDB's primary-key lookup does not
SHOW WARNINGS;
-- BIGINT arithmetic out of range is 1690.
SELECT u - 5 FROM p WHERE id = 3;
SELECT b + 0 FROM p WHERE id = 1;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line (u + 1) first
SELECT u + 1 FROM p WHERE id = 1;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT u - 1 FROM p WHERE id = 2;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT b * 2 FROM p WHERE id = 1;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT b - 1 FROM p WHERE id = 2;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT 9223372036854775807 + 1;
UPDATE p SET u = u + 1 WHERE id = 1;
SELECT id, u FROM p ORDER BY id;
-- A subquery compared in WHERE is one value.
SELECT id FROM p WHERE v = (SELECT MAX(v) FROM p);
SELECT id FROM p WHERE v = (SELECT p2.v FROM p p2 WHERE p2.id = p.id) ORDER BY id;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line (id) first
SELECT id FROM p WHERE v = (SELECT v FROM p);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT COUNT(*) FROM p WHERE v > (SELECT v FROM p WHERE id > 1);
SELECT COUNT(*) FROM p WHERE v IN (SELECT v FROM p);
DELETE FROM p WHERE v = (SELECT v FROM p);
-- Division by zero follows ERROR_FOR_DIVISION_BY_ZERO.
SELECT 1 / 0, 1 DIV 0, 1 MOD 0;
SHOW WARNINGS;
SET sql_mode = '';
SELECT 1 / 0, 1 DIV 0, 1 MOD 0;
SHOW WARNINGS;
SET sql_mode = DEFAULT;
-- An invalid ENUM value in strict mode.
INSERT INTO p (id, e) VALUES (5, 'huge');
SHOW WARNINGS;
SET sql_mode = '';
INSERT INTO p (id, e) VALUES (5, 'huge');
SHOW WARNINGS;
SELECT id, e, e + 0, HEX(e) FROM p WHERE id = 5;
-- An UPDATE that changes only what the collation does not see (case,
-- trailing spaces) writes and counts the row, as MariaDB compares bytes;
-- so does ON DUPLICATE KEY UPDATE.
CREATE TABLE uc (id INT PRIMARY KEY, name VARCHAR(10), c CHAR(5));
INSERT INTO uc VALUES (1, 'a', 'x'), (2, 'b', 'y');
UPDATE uc SET name = 'A' WHERE id = 1;
UPDATE uc SET name = 'A' WHERE id = 1;
UPDATE uc SET name = 'b ' WHERE id = 2;
UPDATE uc SET c = 'X' WHERE id = 1;
UPDATE uc SET c = 'y ' WHERE id = 2;
SELECT id, CONCAT('[', name, ']'), CONCAT('[', c, ']') FROM uc ORDER BY id;
UPDATE uc SET name = UPPER(name);
INSERT INTO uc VALUES (1, 'z', 'z') ON DUPLICATE KEY UPDATE name = 'a';
INSERT INTO uc VALUES (1, 'z', 'z') ON DUPLICATE KEY UPDATE name = 'a';
SELECT id, name, c FROM uc ORDER BY id;
CREATE TABLE uc2 (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO uc2 VALUES (1, 'a'), (2, 'B'), (3, 'c');
UPDATE uc JOIN uc2 ON uc.id = uc2.id SET uc.name = uc2.v;
UPDATE uc, uc2 SET uc.name = 'b', uc2.v = 'b' WHERE uc.id = uc2.id AND uc.id = 2;
UPDATE uc, uc2 SET uc.c = 'Y', uc2.v = 'B' WHERE uc.id = uc2.id AND uc.id = 2;
UPDATE uc2 LEFT JOIN uc ON uc.id = uc2.id SET uc2.v = UPPER(uc2.v), uc.c = 'q';
SELECT uc.id, uc.name, uc.c, uc2.v FROM uc2 LEFT JOIN uc ON uc.id = uc2.id ORDER BY uc2.id;
-- A choice between a time value and text or a number is text.
CREATE TABLE dc (id INT PRIMARY KEY, d DATE NULL, dt DATETIME(2) NULL);
INSERT INTO dc VALUES (1, '2020-01-01', '2020-01-01 10:11:12.5'), (2, NULL, NULL);
SELECT id, IFNULL(d, 'never'), COALESCE(dt, 'never'), IF(d IS NULL, 'none', d), CASE WHEN dt IS NULL THEN 0 ELSE dt END, IFNULL(d, 0), COALESCE(d, NOW()) > '2000' FROM dc ORDER BY id;
-- deviation: a choice between a DATE and a DATETIME(2) has the first argument's type (2020-01-01); MariaDB's is their common DATETIME(2) (2020-01-01 00:00:00.00)
SELECT id, IFNULL(d, dt) FROM dc ORDER BY id;
-- An integer literal is signed up to BIGINT's top, whatever its size
-- (go-mysql-server types 200 as TINYINT UNSIGNED); an unsigned column
-- still makes the result unsigned.
CREATE TABLE lit (id INT PRIMARY KEY, k INT NOT NULL, t TINYINT, u INT UNSIGNED);
INSERT INTO lit VALUES (1, 10, 3, 5), (2, 10, 3, 5);
SELECT k - 139, k + 40000, t - 200, t * 300, k - 3000000000, 3 - 200 FROM lit WHERE id = 1;
UPDATE lit SET k = k - 139, t = t - 130 WHERE id = 1;
SELECT * FROM lit ORDER BY id;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT u - 200 FROM lit WHERE id = 2;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT k - 18446744073709551615 FROM lit WHERE id = 2;
