-- Stored functions: CREATE FUNCTION (RETURN bodies and BEGIN ... END
-- blocks, DEFINER and characteristics as mysqldump writes them), calls in
-- expressions, WHERE and on table columns, SHOW / information_schema,
-- DROP FUNCTION, and the errors of each.
CREATE TABLE t (id INT PRIMARY KEY, qty INT, name VARCHAR(20));
INSERT INTO t VALUES (1, 10, 'pen'), (2, 3, 'ink'), (3, 99, 'lamp');
CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2;
SELECT twice(4);
SELECT id, twice(qty) FROM t WHERE twice(id) > 2 ORDER BY id;
SELECT twice(twice(3)), twice(NULL);
CREATE DEFINER=`root`@`localhost` FUNCTION `capped`(q INT) RETURNS int(11)
    READS SQL DATA
    DETERMINISTIC
    COMMENT 'doubles, at most 100'
BEGIN DECLARE r INT; SET r = q * 2; IF r > 100 THEN RETURN 100; END IF; RETURN r; END;
SELECT id, capped(qty) FROM t ORDER BY id;
CREATE FUNCTION name_of(i INT) RETURNS VARCHAR(20) READS SQL DATA BEGIN DECLARE n VARCHAR(20); SELECT name INTO n FROM t WHERE id = i; RETURN CONCAT('item:', n); END;
SELECT name_of(2), name_of(3);
SELECT id FROM t WHERE name_of(id) = 'item:pen';
CREATE FUNCTION label(a INT, b VARCHAR(5)) RETURNS VARCHAR(20) CHARSET utf8mb4 NO SQL SQL SECURITY INVOKER COMMENT 'x' NOT DETERMINISTIC RETURN CONCAT(b, '-', a);
SELECT label(7, 'k');
/*!50003 CREATE*/ /*!50020 DEFINER=`root`@`localhost`*/ /*!50003 FUNCTION `dumped`(x INT) RETURNS int(11)
    DETERMINISTIC
RETURN x*2 */;
SELECT dumped(21);
INSERT INTO t VALUES (4, twice(21), label(4, 'new'));
UPDATE t SET qty = twice(qty) WHERE id = 2;
SELECT * FROM t ORDER BY id;
CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 3;
CREATE FUNCTION IF NOT EXISTS twice(x INT) RETURNS INT RETURN x * 3;
SHOW WARNINGS;
SELECT twice(5);
CREATE OR REPLACE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 3;
SELECT twice(5);
CREATE FUNCTION nd(x INT) RETURNS INT RETURN x + 1;
SELECT nd(1);
CREATE FUNCTION rec(a INT) RETURNS INT RETURN IF(a > 0, rec(a - 1), 0);
-- deviation: the error comes before the result set; MariaDB sends its column line (rec(2)) first
SELECT rec(2);
CREATE FUNCTION concat(a INT) RETURNS INT RETURN 1;
SELECT concat('a', 'b');
SELECT ROUTINE_NAME, ROUTINE_TYPE, DATA_TYPE, DTD_IDENTIFIER, IS_DETERMINISTIC, SQL_DATA_ACCESS, SECURITY_TYPE, ROUTINE_COMMENT, ROUTINE_DEFINITION FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME;
SELECT ROUTINE_NAME, CHARACTER_MAXIMUM_LENGTH, CHARACTER_OCTET_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE, CHARACTER_SET_NAME, COLLATION_NAME, ROUTINE_BODY, EXTERNAL_LANGUAGE, PARAMETER_STYLE FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME;
-- deviation: DEFINER is the connecting account (root here, bench on the recording server) and sql_mode is the server's; the rest of the row is the same
SHOW CREATE FUNCTION label;
-- deviation: DEFINER is the connecting account (root here, bench on the recording server) and sql_mode is the server's
SHOW CREATE FUNCTION capped;
-- deviation: Definer, Modified and Created differ between the servers
SHOW FUNCTION STATUS WHERE Db = DATABASE();
SELECT nosuch(1);
-- deviation: the error comes before the result set; MariaDB sends its column line first
SELECT twice();
-- deviation: the error comes before the result set; MariaDB sends its column line first
SELECT twice(1, 2);
DROP FUNCTION nd;
DROP FUNCTION nd;
DROP FUNCTION IF EXISTS nd;
SHOW WARNINGS;
SHOW CREATE FUNCTION nd;
SELECT nd(1);
DROP FUNCTION twice;
DROP FUNCTION IF EXISTS capped;
SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME;
