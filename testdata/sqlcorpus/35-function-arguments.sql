-- Functions meeting arguments of other types (issue #27's wrong answers,
-- found by scripts/expr-sweep.sh with SWEEP=functions): string functions
-- of numbers (LEFT(i, 3) and SUBSTRING were "invalid type", LOCATE and
-- CRC32 errors), of dates and times as their text (QUOTE, MD5, CRC32,
-- REVERSE, SUBSTRING of a TIME); date functions of NULL are NULL (WEEK
-- failed the statement) and TIMESTAMPDIFF of a zero date is NULL; a date
-- function of text that is no date is NULL (it failed the statement);
-- SEC_TO_TIME, which go-mysql-server lacks.
CREATE TABLE sw (id INT PRIMARY KEY, i INT, u INT UNSIGNED, bi BIGINT, de DECIMAL(10,3), f FLOAT, db DOUBLE, c CHAR(5), v VARCHAR(20), tx TEXT, d DATE, t TIME, t3 TIME(3), dt DATETIME, dt6 DATETIME(6), ts TIMESTAMP NULL, y YEAR, b BIT(8), e ENUM('x','y','z'), s SET('a','b','c'), bl BLOB);
INSERT INTO sw VALUES (1, -5, 7, 9000000000, 12.345, 1.5, 2.25, 'ab', 'hello', 'text', '2020-02-03', '10:11:12', '10:11:12.345', '2020-02-03 10:11:12', '2020-02-03 10:11:12.123456', '2021-03-04 05:06:07', 2024, b'101', 'y', 'a,c', 'blob'), (2, 0, 0, 0, 0, 0, 0, '', '', '', '0000-00-00', '00:00:00', '00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', NULL, 0, b'0', 'x', '', ''), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT id, CRC32(db) FROM sw ORDER BY id;
SELECT id, CRC32(de) FROM sw ORDER BY id;
SELECT id, CRC32(f) FROM sw ORDER BY id;
SELECT id, CRC32(t) FROM sw ORDER BY id;
SELECT id, CRC32(t3) FROM sw ORDER BY id;
SELECT id, FIND_IN_SET('c', t) FROM sw ORDER BY id;
SELECT id, FIND_IN_SET('c', t3) FROM sw ORDER BY id;
SELECT id, LEFT(bi, 3) FROM sw ORDER BY id;
SELECT id, LEFT(db, 3) FROM sw ORDER BY id;
SELECT id, LEFT(de, 3) FROM sw ORDER BY id;
SELECT id, LEFT(f, 3) FROM sw ORDER BY id;
SELECT id, LEFT(i, 3) FROM sw ORDER BY id;
SELECT id, LEFT(u, 3) FROM sw ORDER BY id;
SELECT id, LOCATE('1', b) FROM sw ORDER BY id;
SELECT id, LOCATE('1', bi) FROM sw ORDER BY id;
SELECT id, LOCATE('1', db) FROM sw ORDER BY id;
SELECT id, LOCATE('1', de) FROM sw ORDER BY id;
SELECT id, LOCATE('1', f) FROM sw ORDER BY id;
SELECT id, LOCATE('1', i) FROM sw ORDER BY id;
SELECT id, LOCATE('1', u) FROM sw ORDER BY id;
SELECT id, LOCATE('1', y) FROM sw ORDER BY id;
SELECT id, MD5(t) FROM sw ORDER BY id;
SELECT id, MD5(t3) FROM sw ORDER BY id;
SELECT id, QUOTE(d) FROM sw ORDER BY id;
SELECT id, QUOTE(dt) FROM sw ORDER BY id;
SELECT id, QUOTE(dt6) FROM sw ORDER BY id;
SELECT id, QUOTE(t) FROM sw ORDER BY id;
SELECT id, QUOTE(t3) FROM sw ORDER BY id;
SELECT id, REVERSE(bi) FROM sw ORDER BY id;
SELECT id, REVERSE(de) FROM sw ORDER BY id;
SELECT id, REVERSE(t3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(b, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(bi, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(db, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(de, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(f, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(i, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(t, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(t3, 2, 3) FROM sw ORDER BY id;
SELECT id, SUBSTRING(u, 2, 3) FROM sw ORDER BY id;
SELECT id, TIMESTAMPDIFF(DAY, '2020-01-01', d) FROM sw ORDER BY id;
SELECT id, TIMESTAMPDIFF(DAY, '2020-01-01', dt) FROM sw ORDER BY id;
SELECT id, TIMESTAMPDIFF(DAY, '2020-01-01', dt6) FROM sw ORDER BY id;
SELECT id, WEEK(d) FROM sw ORDER BY id;
SELECT id, WEEK(dt) FROM sw ORDER BY id;
SELECT id, WEEK(dt6) FROM sw ORDER BY id;
SELECT id, WEEK(ts) FROM sw ORDER BY id;
SELECT WEEK(NULL), YEAR(NULL), DATE_FORMAT(NULL, '%Y');
SELECT SEC_TO_TIME(3661), SEC_TO_TIME(3661.5), SEC_TO_TIME(-90), SEC_TO_TIME(1.5e0), SEC_TO_TIME(4000000), SEC_TO_TIME('100'), SEC_TO_TIME(NULL), SEC_TO_TIME(86399.999999);
SELECT id, SEC_TO_TIME(t), SEC_TO_TIME(t3), SEC_TO_TIME(i), SEC_TO_TIME(de), SEC_TO_TIME(d), SEC_TO_TIME(dt6) FROM sw ORDER BY id;
SELECT SEC_TO_TIME(SUM(TIME_TO_SEC(t))) FROM sw;
SELECT id, DATE_FORMAT(v, '%Y'), YEAR(v), MONTH(c), DATE(tx), DAYNAME(v), WEEK(v) FROM sw ORDER BY id;
SELECT DATE_FORMAT('not a date', '%Y'), DATE_FORMAT('2020-02-03', '%d'), YEAR('2020-02-03 10:00:00'), MONTH('x');
