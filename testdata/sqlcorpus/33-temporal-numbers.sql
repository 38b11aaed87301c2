-- Dates and times meeting numbers (issue #27's wrong answers): a TIME
-- in arithmetic is its hhmmss number, a DATE compared with a number
-- reads the number as a date (20200203 is 2020-02-03), in a WHERE over
-- an index too, and in IN lists; DATE, TIME and TIMESTAMP literals keep
-- their type inside expressions and under a CAST to another type.
CREATE TABLE tn (id INT PRIMARY KEY, d DATE, t TIME, dt DATETIME, KEY (d));
INSERT INTO tn VALUES (1, '2020-02-03', '10:11:12', '2020-02-03 10:11:12'), (2, '2020-02-04', '-01:02:03', '2020-02-04 00:00:00'), (3, NULL, NULL, NULL);
SELECT id, d + 0, t + 0, t * 2, t - 1, dt + 0 FROM tn ORDER BY id;
SELECT id, d = 20200203, d < 20200204, d = 200203, d = 20200203.0, dt = 20200203101112, d BETWEEN 20200101 AND 20200203 FROM tn ORDER BY id;
SELECT id FROM tn WHERE d = 20200203;
SELECT id FROM tn WHERE d > 20200203 ORDER BY id;
SELECT id FROM tn WHERE d IN (20200204, 20200203) ORDER BY id;
SELECT id, d IN (20200203, 5) FROM tn ORDER BY id;
SELECT id FROM tn WHERE d IN ('2020-02-04', 20200203) ORDER BY id;
SELECT id FROM tn WHERE dt >= 20200203120000 ORDER BY id;
SELECT CAST(DATE '2020-02-03' AS TIME), CAST(TIMESTAMP '2020-02-03 10:11:12' AS TIME), CAST(DATE '2020-02-03' AS CHAR), CAST(DATE '2020-02-03' AS DATE);
SELECT DATE '2020-02-03' + 0, DATE '2020-02-03' + INTERVAL 1 DAY, TIMESTAMP '2020-02-03 10:11:12' + 0;
SELECT TIME '10:11:12' + 0, TIME '-10:11:12' + 0, TIME '10:11:12', HOUR(TIME '10:11:12'), TIME '10:11:12' < TIME '11:00:00';
