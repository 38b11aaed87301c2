-- A TIME compared with text compares two TIMEs, the text read as a TIME
-- (text that is no time is 00:00:00 with warning 1292), as MariaDB does
-- (issue #27: a TIME that is no column, such as a CAST or SEC_TO_TIME,
-- was compared as text, so CAST('00:00:01' AS TIME) = '00:00:01' was
-- false).
CREATE TABLE tc (id INT PRIMARY KEY, t TIME, t2 TIME(2), s VARCHAR(20));
INSERT INTO tc VALUES (1, '00:00:01', '10:11:12.50', '00:00:01'), (2, '-10:00:00', '00:00:00.00', '10:11:12.5'), (3, NULL, NULL, NULL), (4, '838:59:59', '01:00:00', 'x');
SELECT CAST('00:00:01' AS TIME) = '00:00:01', CAST('00:00:01.5' AS TIME(1)) < '00:00:02', SEC_TO_TIME(61) = '00:01:01', TIMEDIFF('10:00:00','09:00:00') > '00:59:59';
SELECT '00:01:01' = SEC_TO_TIME(61), SEC_TO_TIME(61) <=> '00:01:01', '-838:59:59' < SEC_TO_TIME(0), SEC_TO_TIME(3600) >= '1:00:00';
SELECT CAST('00:00:01' AS TIME) = 'abc';
SHOW WARNINGS;
SELECT id, t = s, t2 = s, CAST(t AS TIME) = s, SEC_TO_TIME(TIME_TO_SEC(t)) = '00:00:01', t < '01:00', FLOOR(t2) = '10:11:12' FROM tc ORDER BY id;
-- deviation: for text read from a column MariaDB's 1292 names the column and the row ("Incorrect time value: 'x' for column ... at row 4"); HandlerDB's says "Truncated incorrect time value: 'x'", as for other text.
SHOW WARNINGS;
SELECT id FROM tc WHERE CAST(t2 AS TIME) > '00:30:00' ORDER BY id;
