-- Database default character sets and collations: stored, shown, and
-- inherited by the tables (and their columns) that name none.
DROP DATABASE IF EXISTS charset_c_bin;
DROP DATABASE IF EXISTS charset_c_lat;
CREATE DATABASE charset_c_bin DEFAULT CHARACTER SET binary;
SHOW CREATE DATABASE charset_c_bin;
CREATE DATABASE charset_c_lat CHARACTER SET latin1 COLLATE latin1_bin;
SHOW CREATE DATABASE charset_c_lat;
SHOW CREATE DATABASE sqlcorpus_11_charset;
SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('charset_c_bin', 'charset_c_lat', 'sqlcorpus_11_charset') ORDER BY 1;
USE charset_c_bin;
SELECT @@character_set_database, @@collation_database;
CREATE TABLE t (c CHAR(10), v VARCHAR(10), x TEXT);
SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'charset_c_bin' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION;
SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'charset_c_bin' AND TABLE_NAME = 't';
INSERT INTO t VALUES ('ab', 'Ab', 'AB');
SELECT HEX(c), LENGTH(c), v, x FROM t;
SELECT COUNT(*) FROM t WHERE v = 'ab';
-- deviation: SHOW CREATE TABLE prints DEFAULT NULL and int(11) differently (another part of the printer), and COLLATE=binary after CHARSET=binary
SHOW CREATE TABLE t;
USE charset_c_lat;
SELECT @@character_set_database, @@collation_database;
CREATE TABLE t (c CHAR(10), v VARCHAR(10) CHARACTER SET utf8mb4);
SELECT COLUMN_NAME, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'charset_c_lat' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION;
INSERT INTO t VALUES ('abc', 'abc'), ('ABC', 'ABC');
SELECT COUNT(*) FROM t WHERE c = 'abc';
SELECT COUNT(*) FROM t WHERE v = 'abc';
ALTER DATABASE charset_c_lat CHARACTER SET utf8mb4;
SHOW CREATE DATABASE charset_c_lat;
CREATE TABLE t2 (c CHAR(10));
SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'charset_c_lat' ORDER BY 1;
SELECT @@character_set_database, @@collation_database;
ALTER DATABASE charset_c_lat DEFAULT COLLATE latin1_swedish_ci;
SHOW CREATE DATABASE charset_c_lat;
SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'charset_c_lat';
CREATE TABLE t3 (c CHAR(10), d VARCHAR(5) CHARACTER SET utf8mb4, e VARCHAR(5) COLLATE utf8mb4_bin);
SELECT COLUMN_NAME, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'charset_c_lat' AND TABLE_NAME = 't3' ORDER BY ORDINAL_POSITION;
USE sqlcorpus_11_charset;
CREATE TABLE u (c CHAR(10)) CHARSET=utf8mb4;
SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'u';
CREATE TABLE l (c VARCHAR(10)) CHARSET=latin1;
SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'l';
INSERT INTO l VALUES ('zebra'), ('Äpple'), ('apple');
SELECT c FROM l ORDER BY c;
DROP DATABASE charset_c_bin;
-- deviation: DROP DATABASE reports 1 row affected; MariaDB reports the number of tables dropped
DROP DATABASE charset_c_lat;
SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'charset\_c\_%';
