-- FLOOR, CEIL and ROUND of dates and times as MariaDB computes them
-- (issue #27's wrong answers, found by scripts/expr-sweep.sh): of a DATE
-- or YEAR, of its number (FLOOR(d) was the Unix seconds, -2147483648 for
-- the zero date); of a DATETIME, TIMESTAMP or TIME without fractional
-- digits, the value itself (FLOOR was Unix seconds or 0, ROUND failed
-- the statement); FLOOR of a DATETIME(6), the value without its digits.
CREATE TABLE tr (id INT PRIMARY KEY, d DATE, dt DATETIME, dt6 DATETIME(6), t TIME, ts TIMESTAMP NULL, y YEAR);
INSERT INTO tr VALUES (1, '2020-02-03', '2020-02-03 10:11:12', '2020-02-03 10:11:12.923456', '-10:11:12', '2021-03-04 05:06:07', 2024), (2, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '00:00:00', NULL, 0), (3, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT id, FLOOR(d), CEIL(d), CEILING(d), FLOOR(y), CEIL(y) FROM tr ORDER BY id;
SELECT id, FLOOR(dt), CEIL(dt), ROUND(dt), FLOOR(ts), CEIL(ts), ROUND(ts) FROM tr ORDER BY id;
SELECT id, FLOOR(t), CEIL(t), ROUND(t) FROM tr ORDER BY id;
SELECT id, FLOOR(dt6) FROM tr ORDER BY id;
SELECT id, FLOOR(d) + 1, ROUND(dt) = dt FROM tr ORDER BY id;
SELECT id, FORMAT(d, 2), POW(y, 2), SIGN(dt), SQRT(d), LOG10(d) FROM tr ORDER BY id;
