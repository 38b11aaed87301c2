-- CAST of text to TIME(n) has n digits, and the zero date and time with
-- a fraction of zeros casts to the zero DATETIME(n), as in MariaDB
-- (issue #27, found by go-sql-driver's own TestDateTime once TIME and
-- text compared right: CAST('03:25:45.6' AS TIME(1)) printed
-- 03:25:45.600000, CAST('0000-00-00 00:00:00.0' AS DATETIME(1)) was NULL).
SELECT CAST('03:25:45.6' AS TIME(1)), CAST('-838:59:58.9' AS TIME(1)), CAST('10:00:00.123456' AS TIME(6)), CAST('10:00:00.56' AS TIME), CAST('12:34:56.78' AS TIME(1));
SELECT CAST('00:00:00.1' AS TIME(1)) = '00:00:00.1', CAST('12:34:56.7' AS TIME(1)) < '12:34:57';
SELECT CAST('2011-11-20 21:27:37.1' AS DATETIME(1)), CAST('0000-00-00 00:00:00.0' AS DATETIME(1)), CAST('0000-00-00 00:00:00.000000' AS DATETIME(6)), CAST('x' AS DATETIME(1));
