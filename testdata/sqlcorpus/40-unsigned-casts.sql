-- +, - and * with a CAST to UNSIGNED or SIGNED as an operand are checked
-- as MariaDB checks them (issue #27: 3 - CAST(5 AS UNSIGNED) was -2, a
-- silent wrong answer; MariaDB's error 1690 quotes the CASTs as written).
CREATE TABLE uc (id INT PRIMARY KEY, u INT UNSIGNED, s INT);
INSERT INTO uc VALUES (1, 3, -4), (2, 10, 2), (3, NULL, 1);
-- deviation: MariaDB sends the result's column line before error 1690; HandlerDB sends the error alone (it is raised before the columns go out: while a constant is folded, or in the primary-key fast path).
SELECT 3 - CAST(5 AS UNSIGNED) FROM uc WHERE id = 1;
-- deviation: MariaDB sends the result's column line before error 1690; HandlerDB sends the error alone (it is raised before the columns go out: while a constant is folded, or in the primary-key fast path).
SELECT CAST(3 AS UNSIGNED) - 5 FROM uc WHERE id = 1;
-- deviation: MariaDB sends the result's column line before error 1690; HandlerDB sends the error alone (it is raised before the columns go out: while a constant is folded, or in the primary-key fast path).
SELECT CAST('7' AS UNSIGNED) - 8 FROM uc WHERE id = 1;
-- deviation: MariaDB sends the result's column line before error 1690; HandlerDB sends the error alone (it is raised before the columns go out: while a constant is folded, or in the primary-key fast path).
SELECT CAST(-3 AS SIGNED) * 4 - CAST(2 AS UNSIGNED) FROM uc WHERE id = 1;
SELECT CAST(3 AS UNSIGNED) + 5, CAST(3 AS UNSIGNED) * 2, CAST(-3 AS SIGNED) * 4, CAST(1 AS UNSIGNED) - 1, CAST(7 AS UNSIGNED) - CAST(2 AS SIGNED);
SELECT id, CAST(u AS UNSIGNED) + s FROM uc WHERE id > 1 ORDER BY id;
SELECT id, u - CAST(s AS UNSIGNED) FROM uc WHERE id = 2;
SELECT id, CAST(s AS UNSIGNED) - 5 FROM uc WHERE id = 1;
-- deviation: MariaDB sends the result's column line before error 1690; HandlerDB sends the error alone (it is raised before the columns go out: while a constant is folded, or in the primary-key fast path).
SELECT id, s - CAST(u AS UNSIGNED) FROM uc WHERE id = 2;
