-- A dump's load as mariadb-dump writes it: INSERTs of many literal rows
-- (the bulk insert path, internal/sqlbackend/bulkinsert.go), in
-- autocommit, inside LOCK TABLES and inside a transaction; a duplicate
-- key in the middle of a statement leaves nothing of it; values that
-- warn, and forms the path leaves to the ordinary one, answer as before.
SET NAMES utf8mb4;
CREATE TABLE dl (id INT NOT NULL, ti TINYINT, u BIGINT UNSIGNED, d DECIMAL(8,3), f DOUBLE, fl FLOAT, s VARCHAR(20), c CHAR(4), b VARBINARY(8), bl BLOB, t TEXT, dt DATE, dtm DATETIME(3), ts TIMESTAMP NULL, tm TIME, y YEAR, e ENUM('a','b','c'), st SET('x','y','z'), PRIMARY KEY (id), UNIQUE KEY us (s));
LOCK TABLES dl WRITE;
INSERT INTO dl VALUES (1,-128,18446744073709551615,-12345.678,-1.5e-300,3.25,'a\'b\\c','x\0y',0x00FF10,'\n\r\Z\"','日本語😀','2024-02-29','2024-01-02 03:04:05.678','2038-01-19 03:14:07','-838:59:59',1901,'b','x,z'),(2,127,0,0.001,1e300,-0.5,'it''s','',X'41',NULL,'','1000-01-01','9999-12-31 23:59:59.999','1970-01-01 00:00:01','00:00:00',2155,'c',''),(3,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
UNLOCK TABLES;
SELECT id, ti, u, d, f, fl, HEX(s), HEX(c), HEX(b), HEX(bl), HEX(t), dt, dtm, ts, tm, y, e, st FROM dl ORDER BY id;
INSERT INTO dl (s, id, d) VALUES ('four', 4, 4.5), ('five', 5, -5), ('six', 6, .25);
SELECT id, s, d FROM dl ORDER BY id;
INSERT INTO dl (id, s) VALUES (10,'p'),(11,'q'),(1,'r'),(12,'s');
INSERT INTO dl (id, s) VALUES (13,'t'),(14,'four');
INSERT INTO dl (id, s) VALUES (15,'u'),(16,'v'),(15,'w');
SELECT COUNT(*), GROUP_CONCAT(id ORDER BY id) FROM dl;
START TRANSACTION;
INSERT INTO dl (id, s) VALUES (20,'t20'),(21,'t21');
INSERT INTO dl (id, s) VALUES (22,'t22'),(20,'dup');
INSERT INTO dl (id, s) VALUES (23,'t23');
SELECT GROUP_CONCAT(id ORDER BY id) FROM dl;
COMMIT;
SELECT GROUP_CONCAT(id ORDER BY id) FROM dl;
START TRANSACTION;
INSERT INTO dl (id, s) VALUES (30,'t30'),(31,'t31');
ROLLBACK;
SELECT GROUP_CONCAT(id ORDER BY id) FROM dl;
INSERT INTO dl (id, ti) VALUES (40, 300), (41, 1);
SELECT COUNT(*) FROM dl WHERE id >= 40;
SET sql_mode = '';
INSERT INTO dl (id, ti, s) VALUES (42, 300, 'x42'), (43, 'abc', 'x43');
SHOW WARNINGS;
SELECT id, ti FROM dl WHERE id >= 40 ORDER BY id;
CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5));
INSERT INTO ai VALUES (5,'a'),(7,'b');
SELECT LAST_INSERT_ID(), ROW_COUNT();
INSERT INTO ai (v) VALUES ('c');
SELECT id, v FROM ai ORDER BY id;
