-- Binary strings and doubles read as numbers (issue #27's wrong answers,
-- found by scripts/expr-sweep.sh): a BLOB, VARBINARY or BINARY value
-- under CAST to a number, a numeric function or an aggregate is its text
-- read as a number (SUM of a BLOB holding '123' was 3224115, its bytes as
-- an integer); a FLOAT or DOUBLE read as an integer is rounded half to
-- even, and past the integer's range is the nearest end with note 1916
-- (CAST(0e0 AS UNSIGNED) and BIT_OR of DOUBLE zeros were
-- 9223372036854775808). ABS of text is of its number (it was NULL, for
-- ABS('12') too), and ABS and ROUND of an ENUM, SET or BIT of its index
-- or bits (ABS of an ENUM was its label, ROUND NULL).
CREATE TABLE bn (id INT PRIMARY KEY, bl BLOB, vb VARBINARY(10), bi BINARY(4), db DOUBLE, f FLOAT);
INSERT INTO bn VALUES (1, '123', '45', '6', 2.5, -1.5), (2, 'blob', '', '', 0, 0), (3, '7.5', '-2', '12', -0.6, 3.5), (4, NULL, NULL, NULL, NULL, NULL);
SELECT id, bl + 0, vb * 2, bi - 1 FROM bn ORDER BY id;
SELECT id, CAST(bl AS DOUBLE), CAST(vb AS SIGNED), CAST(bl AS DECIMAL(10,2)) FROM bn ORDER BY id;
SELECT SUM(bl), SUM(vb), AVG(bl), BIT_OR(vb), BIT_XOR(bl) FROM bn;
SELECT id, FLOOR(vb), CEIL(bl), ROUND(bl), SIGN(vb), SQRT(bl) FROM bn ORDER BY id;
SELECT STDDEV_POP(bl), VAR_POP(bl) FROM bn;
SELECT id, CAST(db AS UNSIGNED), CAST(db AS SIGNED), CAST(f AS UNSIGNED), CAST(f AS SIGNED) FROM bn ORDER BY id;
SHOW WARNINGS;
SELECT CAST(2.5e0 AS SIGNED), CAST(-2.5e0 AS SIGNED), CAST(3.5e0 AS SIGNED), CAST(0e0 AS UNSIGNED), CAST(-0.4e0 AS UNSIGNED);
SELECT CAST(1e20 AS UNSIGNED), CAST(-1e0 AS UNSIGNED), CAST(1e20 AS SIGNED), CAST(-1e20 AS SIGNED);
SHOW WARNINGS;
SELECT BIT_OR(db), BIT_AND(db), BIT_XOR(db), BIT_OR(f) FROM bn;
SELECT BIT_OR(-1e0), BIT_XOR(-3.5e0), BIT_AND(2.5e0);
CREATE TABLE lb (id INT PRIMARY KEY, v VARCHAR(10), e ENUM('x','y','z'), s SET('a','b','c'), b BIT(8));
INSERT INTO lb VALUES (1, '-3.5', 'y', 'a,c', b'101'), (2, 'ab', 'x', '', b'0'), (3, NULL, NULL, NULL, NULL);
SELECT id, ABS(v), ABS(e), ABS(s), ABS(b), ABS('12'), ABS('-7e1') FROM lb ORDER BY id;
SELECT id, ROUND(e), ROUND(s), ROUND(b), ROUND(e, 1), ROUND(v) FROM lb ORDER BY id;
SELECT id, SQRT(v), POW(v, 2), LOG(v), TRUNCATE(v, 1), FORMAT(v, 2), SIGN(v), EXP(v) FROM lb ORDER BY id;
SELECT SQRT('16'), POW('2', 3), LOG(10, '100'), FORMAT('1234.5', 2), DEGREES('0');
