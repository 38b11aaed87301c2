-- An INTERVAL whose value is text, as MariaDB reads it: the integer its
-- prefix holds ('1.9' DAY is one day, 'x' none), with warning 1292 when
-- anything but the number follows it and a note when only spaces do
-- (issue #27: go-mysql-server failed the statement with 1366), for every
-- unit of one number but SECOND (which MariaDB reads as a decimal), in
-- DATE_ADD and DATE_SUB of a date too; and the column of a table as the
-- interval.
CREATE TABLE iv (id INT PRIMARY KEY, d DATE, dt DATETIME, s VARCHAR(10));
INSERT INTO iv VALUES (1, '2024-01-05', '2024-01-05 10:00:00', '1.9'), (2, '2024-01-31', '2024-01-31 23:59:59', ' 3 '), (3, '2023-12-31', '2023-12-31 00:00:00', 'x'), (4, '2024-02-29', '2024-02-29 12:00:00', '-2y'), (5, NULL, NULL, NULL);
SELECT DATE('2024-01-05') + INTERVAL '1 2' DAY, DATE('2024-01-05') + INTERVAL '' DAY, DATE('2024-01-05') - INTERVAL '2e1' DAY;
SHOW WARNINGS;
SELECT DATE('2024-01-05') + INTERVAL ' 3 ' MONTH, DATE('2024-01-05') + INTERVAL ' +4' WEEK;
SHOW WARNINGS;
SELECT DATE_ADD(CAST('2024-01-05 10:00:00' AS DATETIME), INTERVAL '5x' HOUR), DATE_SUB(CAST('2024-01-05 10:00:00' AS DATETIME), INTERVAL '7.5' MINUTE), DATE_ADD(DATE('2024-01-05'), INTERVAL '0x10' YEAR), DATE_ADD(DATE('2024-01-05'), INTERVAL '2q' QUARTER);
SHOW WARNINGS;
SELECT DATE_ADD(CAST('2024-01-05 10:00:00' AS DATETIME), INTERVAL '15 ' MICROSECOND);
SHOW WARNINGS;
SELECT id, d + INTERVAL s DAY, dt - INTERVAL s HOUR, DATE_ADD(d, INTERVAL s MONTH) FROM iv ORDER BY id;
SHOW WARNINGS;
