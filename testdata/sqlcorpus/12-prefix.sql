-- Prefix indexes: a key part cut to N characters of its charset (bytes
-- for binary types), uniqueness of the prefix, lookups that recheck the
-- full value, and MariaDB's limits.
CREATE TABLE a (v1 VARCHAR(1000), v2 INT, KEY (v2, v1(300))) CHARSET=latin1;
INSERT INTO a VALUES (REPEAT('x', 400), 1), (CONCAT(REPEAT('x', 300), 'y'), 1), ('short', 2);
SELECT v2, LENGTH(v1) FROM a WHERE v2 = 1 AND v1 = REPEAT('x', 400);
SELECT COUNT(*) FROM a WHERE v2 = 1 AND v1 LIKE 'xxx%';
CREATE TABLE p (k VARCHAR(20) NOT NULL, v INT, PRIMARY KEY (k(5)));
INSERT INTO p VALUES ('abcdefg', 1), ('abcd', 2), ('abcz', 3), ('b', 4);
INSERT INTO p VALUES ('abcdexx', 9);
INSERT INTO p VALUES ('ABCDEzz', 9);
SELECT * FROM p WHERE k = 'abcdexx';
SELECT * FROM p WHERE k = 'abcdefg';
SELECT * FROM p WHERE k = 'abcde';
SELECT * FROM p WHERE k > 'abcde' ORDER BY k;
SELECT * FROM p WHERE k >= 'abcdexx' ORDER BY k;
SELECT * FROM p WHERE k < 'abcdexx' ORDER BY k;
SELECT * FROM p WHERE k BETWEEN 'abcd' AND 'abcdf' ORDER BY k;
SELECT * FROM p WHERE k IN ('abcdefg', 'abcdexx', 'b') ORDER BY k;
UPDATE p SET v = 10 WHERE k = 'abcdexx';
UPDATE p SET v = 10 WHERE k = 'abcdefg';
SELECT * FROM p ORDER BY k;
DELETE FROM p WHERE k = 'abcdexx';
SELECT COUNT(*) FROM p;
INSERT INTO p VALUES ('abcdefg', 1) ON DUPLICATE KEY UPDATE v = v + 100;
INSERT INTO p VALUES ('abcdeZZ', 1) ON DUPLICATE KEY UPDATE v = v + 100;
SELECT * FROM p ORDER BY k;
CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(20), w VARCHAR(20), b VARBINARY(10), UNIQUE KEY u (v(3)), KEY kw (w(2)), KEY kb (b(2)));
INSERT INTO s VALUES (1, 'xyz1', 'aa1', 'q1'), (2, 'xy', 'aa2', 'q2'), (3, 'xzz', 'ab', 'r'), (4, 'ñañ', 'ñaña', 'qq');
INSERT INTO s VALUES (5, 'xyzzy', 'c', 'c');
INSERT INTO s VALUES (6, 'ñañx', 'c', 'c');
INSERT INTO s VALUES (7, 'ñaX', 'c', 'c');
SELECT id FROM s WHERE w = 'aa1';
SELECT id FROM s WHERE w = 'aa9';
SELECT id FROM s WHERE w LIKE 'aa%' ORDER BY id;
SELECT id FROM s WHERE w > 'aa1' ORDER BY id;
SELECT id FROM s WHERE w = 'ñaña';
SELECT id FROM s WHERE b = 'q1';
SELECT id FROM s WHERE b >= 'q' AND b < 'r' ORDER BY id;
SELECT id FROM s WHERE v = 'xyz';
SELECT id FROM s WHERE v = 'xyz1';
SELECT id FROM s FORCE INDEX (kw) WHERE w = 'aa2';
-- deviation: go-mysql-server reads SUB_PART from PrefixLengths, where 0 stands for no prefix: a whole-value column before a prefix column (v2 of KEY (v2, v1(300))) shows 0 for MariaDB's NULL
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX;
-- deviation: SHOW CREATE TABLE prints DEFAULT NULL and int(11) differently (another part of the printer)
SHOW CREATE TABLE p;
-- deviation: SHOW CREATE TABLE prints DEFAULT NULL and int(11) differently (another part of the printer)
SHOW CREATE TABLE s;
-- deviation: SHOW CREATE TABLE prints DEFAULT NULL and int(11) differently (another part of the printer)
SHOW CREATE TABLE a;
CREATE TABLE e1 (v VARCHAR(10), KEY (v(20)));
CREATE TABLE e2 (v INT, KEY (v(2)));
CREATE TABLE e3 (v CHAR(10), KEY (v(0)));
CREATE TABLE e4 (a VARCHAR(800), b VARCHAR(800), KEY (a(700), b(700)));
CREATE TABLE e5 (a VARCHAR(800), b INT, PRIMARY KEY (a(768), b));
CREATE TABLE e6 (a VARCHAR(800) PRIMARY KEY);
CREATE TABLE e7 (a VARCHAR(800), b VARCHAR(800), KEY (a(384), b(384)));
CREATE TABLE e8 (v VARCHAR(3000), KEY (v(3072))) CHARSET=latin1;
CREATE TABLE e9 (v VARBINARY(5000), KEY (v(3072)));
CREATE TABLE e10 (v VARCHAR(10), KEY (v(10)));
CREATE TABLE e11 (v VARCHAR(1000), KEY (v(800)));
SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'e%' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX;
CREATE TABLE t (a INT, b VARCHAR(10)) CHARSET=latin1;
INSERT INTO t VALUES (1, 'xyz1'), (2, 'xyz2');
ALTER TABLE t ADD PRIMARY KEY (b(3));
ALTER TABLE t ADD PRIMARY KEY (b(4));
ALTER TABLE t ADD UNIQUE KEY ub (b(2));
ALTER TABLE t ADD KEY kb (b(2));
CREATE INDEX k50 ON t (b(50));
CREATE UNIQUE INDEX u3 ON t (b(4));
INSERT INTO t VALUES (3, 'xyz10');
SELECT INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
SELECT a FROM t WHERE b = 'xyz2';
-- deviation: ALTER TABLE reports 0 rows affected; MariaDB reports the rows it copied
ALTER TABLE t DROP COLUMN b;
SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't';
CREATE TABLE lk (id INT, t TEXT, v VARCHAR(20), PRIMARY KEY (v(4)), KEY kt (t(10)));
CREATE TABLE lk2 LIKE lk;
SELECT INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lk2' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
INSERT INTO lk2 VALUES (1, 'a', 'abcdx');
INSERT INTO lk2 VALUES (2, 'a', 'abcdy');
CREATE TABLE mb3 (v VARCHAR(1100), KEY kv (v(1025))) CHARSET=utf8;
SELECT INDEX_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'mb3';
