-- Values and statements that clients and dump tools send (issue #27):
-- CAST to TIME of text with a date (what a DATETIME parameter arrives
-- as), YEAR zero, the variance functions over DECIMAL, index hints that
-- name no index, MariaDB's executable comments, DO and SHOW PACKAGE
-- STATUS. SHOW WARNINGS follows what warns.
SELECT CAST('0001-01-01 03:25:45' AS TIME), CAST('2011-11-20 21:27:37.123456' AS TIME), CAST('0000-00-00' AS TIME);
-- deviation: CAST('0000-00-00' AS TIME) is 00:00:00 without MariaDB's warning 1292 (Truncated incorrect time value)
SHOW WARNINGS;
SELECT CAST('03:25:45.78' AS TIME), CAST('-838:59:59' AS TIME), CAST('2011-01-01' AS TIME), CAST(CAST('2011-01-01 03:25:45' AS DATETIME) AS TIME);
-- deviation: CAST(DATE '2020-02-03' AS TIME) is 00:20:20, MariaDB's 00:00:00: the parser hands go-mysql-server DATE 'x' as the text 'x', which reads as a time of 20 minutes 20 seconds
SELECT CAST(TIMESTAMP '0001-01-01 03:25:45' AS TIME), CAST(DATE '2020-02-03' AS TIME), TIME_TO_SEC(CAST('2011-01-01 01:00:01' AS TIME));
CREATE TABLE yz (id INT PRIMARY KEY, y YEAR NULL);
INSERT INTO yz VALUES (1, 0), (2, 2024), (3, NULL), (4, '0'), (5, 69);
-- deviation: CONCAT of a YEAR holding 0 gives 0, MariaDB's 0000
SELECT id, y, y + 0, CONCAT(y) FROM yz ORDER BY id;
SELECT id, y FROM yz ORDER BY id;
CREATE TABLE dv (id INT PRIMARY KEY, d DECIMAL(5,2));
INSERT INTO dv VALUES (1, 1.50), (2, 2.25), (3, 7.00);
SELECT STDDEV_POP(d), STD(d), STDDEV(d), VAR_POP(d), STDDEV_SAMP(d), VAR_SAMP(d), VARIANCE(d) FROM dv;
SELECT * FROM dv FORCE INDEX (nope);
SELECT * FROM dv USE INDEX (nope);
SELECT * FROM dv IGNORE INDEX (nope);
SELECT * FROM dv AS Q FORCE INDEX (nope) WHERE id = 1;
UPDATE dv FORCE INDEX (nope) SET d = 0;
SELECT a.id FROM dv a JOIN dv b FORCE INDEX (primary) USING (id) ORDER BY a.id;
SELECT * FROM dv FORCE INDEX (PRIMARY) WHERE id = 2;
SHOW PACKAGE STATUS;
SHOW PACKAGE BODY STATUS;
/*!50705 SELECT 'mysql57' */;
/*!80000 SELECT 'mysql8' */;
/*!100100 SELECT 'mariadb' */;
/*M!100100 SELECT 'mariadb only' */;
/*!40101 SELECT 'old' */;
-- deviation: the value is MariaDB's (1111), the column's name keeps a blank for each character of the executable comments' markers, where MariaDB's drops them
SELECT 1 /*!50705 + 1 */ /*!100100 + 10 */ /*M!100100 + 100 */ /*!40000 + 1000 */;
DO 1 + 1, SLEEP(0);
DO (SELECT COUNT(*) FROM dv);
CREATE TABLE ro (id INT PRIMARY KEY, v INT);
INSERT INTO ro VALUES (1, 1);
SET SESSION TRANSACTION READ ONLY;
SELECT @@tx_read_only;
INSERT INTO ro VALUES (2, 2);
UPDATE ro SET v = 2;
DELETE FROM ro WHERE id = 1;
DROP TABLE ro;
CREATE TABLE ro2 (a INT);
ALTER TABLE ro ADD COLUMN w INT;
SELECT * FROM ro ORDER BY id;
SET SESSION TRANSACTION READ WRITE;
INSERT INTO ro VALUES (3, 3);
SET tx_read_only = 1;
UPDATE ro SET v = 4 WHERE id = 3;
SET tx_read_only = 0;
START TRANSACTION READ ONLY;
INSERT INTO ro VALUES (5, 5);
SELECT * FROM ro ORDER BY id;
COMMIT;
SELECT * FROM ro ORDER BY id;
CREATE TABLE tg (a INT);
CREATE TRIGGER IF NOT EXISTS tgr BEFORE INSERT ON tg FOR EACH ROW SET NEW.a = 1;
CREATE TRIGGER IF NOT EXISTS tgr BEFORE INSERT ON tg FOR EACH ROW SET NEW.a = 2;
SHOW WARNINGS;
CREATE TRIGGER tgr BEFORE INSERT ON tg FOR EACH ROW SET NEW.a = 2;
INSERT INTO tg VALUES (9);
SELECT * FROM tg;
/*!50003 DROP FUNCTION IF EXISTS nofn */;
SHOW WARNINGS;
/*!50003 DROP PROCEDURE IF EXISTS noproc */;
CREATE TABLE rw (id INT PRIMARY KEY);
SET tx_read_only = 1;
SET SESSION TRANSACTION READ WRITE;
SELECT @@tx_read_only;
INSERT INTO rw VALUES (1);
SET SESSION TRANSACTION READ ONLY;
SET tx_read_only = 0;
INSERT INTO rw VALUES (2);
SELECT * FROM rw;
