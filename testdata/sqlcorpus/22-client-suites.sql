-- The SQL that three HandlerSocket client test suites send before and
-- after their HandlerSocket requests: they create their database and
-- tables over the MySQL protocol, load rows, and check them with SELECT.
-- The statements below are written for this corpus in the shapes those
-- suites use (names prefixed corpus_ so they can run on a shared server);
-- the comments name the suite and the file whose set-up they follow.
--
-- Suite 1: the plugin's own regression tests (Perl, Net::HandlerSocket;
-- plugin/handler_socket/regtest in MariaDB's source). common/hstest.pm
-- init_testdb drops the test database and creates it again with DEFAULT
-- CHARACTER SET binary (or the charset a test passes), then each
-- test_01_lib/testNN.pl creates hstesttbl, fills it over SQL or
-- HandlerSocket and prints SELECT ... ORDER BY k to compare with its
-- expected output.
DROP DATABASE IF EXISTS corpus_hstestdb;
CREATE DATABASE corpus_hstestdb DEFAULT CHARACTER SET binary;
USE corpus_hstestdb;
SHOW CREATE DATABASE corpus_hstestdb;
SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'corpus_hstestdb';
-- test01/test20/test22: a VARCHAR primary key, InnoDB.
CREATE TABLE hstesttbl (k varchar(30) primary key, v varchar(30) not null) engine = innodb;
INSERT INTO hstesttbl VALUES ('k0', 'v512-0'), ('k1', 'v96-1'), ('k10', 'v7-10'), ('k2', 'v330-2');
SELECT k, v FROM hstesttbl ORDER BY k;
SELECT k, v FROM hstesttbl WHERE k IN ('k10', 'k20x', 'k1') ORDER BY k;
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
-- test14: two secondary keys on binary strings, MyISAM, INSERT IGNORE.
CREATE TABLE hstesttbl (k int primary key, v1 varchar(30), v2 varchar(30), index i1(v1), index i2(v2, v1)) engine = myisam default charset = binary;
INSERT IGNORE INTO hstesttbl VALUES (0, '', ''), (1, '0', 'A'), (2, '01', 'AB'), (3, '012', 'ABC'), (2, 'dup', 'dup');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
SELECT k FROM hstesttbl WHERE v2 = 'AB' AND v1 = '01';
-- deviation: ENGINE=InnoDB for the ENGINE=MyISAM the table was created with: HandlerDB has one storage engine and shows InnoDB for every table (deliberate)
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
-- test13/test18: AUTO_INCREMENT, rows inserted over SQL with k = 0.
CREATE TABLE hstesttbl (k int primary key auto_increment, v1 varchar(30), v2 varchar(30)) engine = myisam default charset = binary;
INSERT INTO hstesttbl VALUES (0, 'v1sql_0', 'v2sql_0'), (0, 'v1sql_1', 'v2sql_1'), (0, 'v1sql_2', 'v2sql_2');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
DROP TABLE hstesttbl;
-- test16: date and time types as keys, with their zero values.
CREATE TABLE hstesttbl (k DATE primary key, v1 varchar(512), v2 DATE, index i1(v1), index i2(v2, v1)) engine = myisam default charset = binary;
INSERT INTO hstesttbl VALUES ('0000-00-00', 's0000-00-00', '0000-00-00'), ('2011-01-01', 's2011-01-01', '2011-01-01'), ('9999-12-31', 's9999-12-31', '9999-12-31');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
DROP TABLE hstesttbl;
CREATE TABLE hstesttbl (k DATETIME primary key, v1 varchar(512), v2 DATETIME, index i1(v1), index i2(v2, v1)) engine = myisam default charset = binary;
INSERT INTO hstesttbl VALUES (0, 's0', 0), ('2011-01-01 18:30:25', 's2011-01-01 18:30:25', '2011-01-01 18:30:25');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
DROP TABLE hstesttbl;
CREATE TABLE hstesttbl (k TIME primary key, v1 varchar(512), v2 TIME, index i1(v1), index i2(v2, v1)) engine = myisam default charset = binary;
INSERT INTO hstesttbl VALUES (0, 's0', 0), ('18:30:25', 's18:30:25', '18:30:25');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
DROP TABLE hstesttbl;
CREATE TABLE hstesttbl (k YEAR(4) primary key, v1 varchar(512), v2 YEAR(4), index i1(v1), index i2(v2, v1)) engine = myisam default charset = binary;
INSERT INTO hstesttbl VALUES (1901, 's1901', 1901), (2011, 's2011', 2011), (2155, 's2155', 2155);
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
-- deviation: ENGINE=InnoDB for the ENGINE=MyISAM the table was created with: HandlerDB has one storage engine and shows InnoDB for every table (deliberate)
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
-- test17: string keys in a latin1 table, with prefix lengths on the keys.
CREATE TABLE hstesttbl (k CHAR(10), v1 varchar(1000), v2 CHAR(10), primary key(k), index i1(v1), index i2(v2, v1(300))) engine = myisam default charset = latin1;
INSERT INTO hstesttbl VALUES ('A', 'sA', 'A'), ('GJ', 'sGJ', 'GJ'), ('GJBBJ', 'sGJBBJ', 'GJBBJ');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
-- deviation: ENGINE=InnoDB for the ENGINE=MyISAM the table was created with: HandlerDB has one storage engine and shows InnoDB for every table (deliberate)
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
CREATE TABLE hstesttbl (k LONGTEXT, v1 varchar(1000), v2 LONGTEXT, primary key(k(500)), index i1(v1), index i2(v2(500), v1(300))) engine = myisam default charset = latin1;
INSERT INTO hstesttbl VALUES ('G', 'sG', 'G'), ('GJBBJDJCAH', 'sGJBBJDJCAH', 'GJBBJDJCAH');
SELECT k, v1, v2 FROM hstesttbl ORDER BY k;
-- deviation: ENGINE=InnoDB for the ENGINE=MyISAM the table was created with: HandlerDB has one storage engine and shows InnoDB for every table (deliberate)
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
-- test19: a two-column key, a nullable value column of each type, INSERT IGNORE.
CREATE TABLE hstesttbl (k1 int not null, k2 int not null, v1 int not null, v2 TINYINT UNSIGNED default null, primary key (k1, k2)) engine = innodb;
INSERT IGNORE INTO hstesttbl VALUES (0, 0, 0, 0), (0, 1, 0, 255), (0, 2, 0, NULL), (0, 3, 0, 300);
SELECT k1, k2, v1, v2 FROM hstesttbl ORDER BY k1, k2;
DROP TABLE hstesttbl;
-- test24: a TIMESTAMP column filled by its default (its value is the time of the run).
CREATE TABLE hstesttbl (id bigint(20) not null auto_increment, t1 timestamp not null default current_timestamp, primary key (id)) engine = innodb;
INSERT INTO hstesttbl (id) VALUES (321);
SELECT id, t1 IS NOT NULL, t1 <= NOW() FROM hstesttbl;
SHOW CREATE TABLE hstesttbl;
DROP TABLE hstesttbl;
-- init_testdb with a charset argument.
DROP DATABASE corpus_hstestdb;
CREATE DATABASE corpus_hstestdb DEFAULT CHARACTER SET latin1;
SHOW CREATE DATABASE corpus_hstestdb;
DROP DATABASE corpus_hstestdb;
--
-- Suite 2: HandlerSocketLibrary (PHP, KonstantinKuklin/HandlerSocketLibrary).
-- tests/resources/preTests.sql runs before the suite: it turns strict mode
-- off (SQL_MODE = NO_AUTO_VALUE_ON_ZERO only), creates hs_test with
-- columns named after types (date, float, set, union, null, ...) and a
-- two-column primary key, and loads rows with zero dates, '' in NOT NULL
-- ENUM and SET columns, CRLF text and the control bytes CHAR(0)..CHAR(15).
-- The tests then read those rows over HandlerSocket and expect them byte
-- for byte.
DROP DATABASE IF EXISTS corpus_hs;
CREATE DATABASE corpus_hs;
USE corpus_hs;
SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";
SELECT @@SESSION.sql_mode;
DROP TABLE IF EXISTS `hs_test`;
CREATE TABLE `hs_test` (`key` INT(11) NOT NULL, `date` DATE NOT NULL, `float` FLOAT NOT NULL,
  `varchar` VARCHAR(40) NOT NULL, `text` TEXT NOT NULL, `set` SET('a','b','c') NOT NULL,
  `union` ENUM('a','b','c') NOT NULL, `null` INT(11) DEFAULT NULL, `num` INT(11) DEFAULT 0,
  PRIMARY KEY (`key`, `num`)) ENGINE=InnoDB DEFAULT CHARSET=utf8;
INSERT INTO `hs_test` (`key`, `date`, `float`, `varchar`, `text`, `set`, `union`, `null`, `num`) VALUES
  (3, '0000-00-00', 3, '', '', '', '', NULL, 0), (5, '0000-00-00', 5, '', '', '', '', NULL, 0),
  (12, '0000-00-00', 12345, '', '', '', '', NULL, 0),
  (42, '2010-10-29', 3.14159, 'variable length', 'line one\r\nline two', 'a,c', 'b', NULL, 0),
  (200, '0000-00-00', 0, '', 'text200', '', '', NULL, 2), (201, '0000-00-00', 0, '', 'text201', '', '', NULL, 2),
  (20001, '2012-01-20', 1, 'control bytes',
   CONCAT(CHAR(0), CHAR(1), CHAR(2), CHAR(3), CHAR(4), CHAR(5), CHAR(6), CHAR(7),
          CHAR(8), CHAR(9), CHAR(10), CHAR(11), CHAR(12), CHAR(13), CHAR(14), CHAR(15)), 'b', 'c', NULL, 0);
SELECT `key`, `date`, `float`, `varchar`, `set`, `union`, `null`, `num` FROM `hs_test` ORDER BY `key`, `num`;
SELECT `key`, HEX(`text`), LENGTH(`text`) FROM `hs_test` WHERE `key` IN (42, 20001) ORDER BY `key`;
SELECT `key`, HEX(`union`), `union` + 0, HEX(`set`), `set` + 0 FROM `hs_test` WHERE `key` IN (3, 42, 20001) ORDER BY `key`;
SELECT COUNT(*) FROM `hs_test` WHERE `date` = '0000-00-00';
SHOW CREATE TABLE `hs_test`;
-- tests/resources/postTests.sql: the table goes when the suite ends.
DROP TABLE IF EXISTS `hs_test`;
SET SQL_MODE = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION';
DROP DATABASE corpus_hs;
--
-- Suite 3: active_record_handlersocket (Ruby on Rails, sugilog/
-- active_record_handlersocket). tasks/db.rake prepares MySQL for the specs:
-- CREATE DATABASE with a quoted charset name, tables with display widths,
-- DEFAULT '' and DEFAULT '1' on integers, ENGINE=InnoDB AUTO_INCREMENT=1
-- DEFAULT CHARSET=utf8, then CREATE INDEX ... USING btree, each step
-- checked with SHOW DATABASES, SHOW TABLES and SHOW INDEXES.
DROP DATABASE IF EXISTS corpus_ar_handler_socket_test;
CREATE DATABASE corpus_ar_handler_socket_test DEFAULT CHARACTER SET 'utf8';
SHOW DATABASES LIKE 'corpus_ar_handler_socket%';
USE corpus_ar_handler_socket_test;
CREATE TABLE people (id int(11) NOT NULL AUTO_INCREMENT, name varchar(255) DEFAULT '', age int(11) DEFAULT NULL, status tinyint(1) NOT NULL DEFAULT '1', PRIMARY KEY (id)) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;
CREATE TABLE hobbies (id int(11) NOT NULL AUTO_INCREMENT, person_id int(11) NOT NULL, title varchar(255) DEFAULT '', created_at datetime DEFAULT NULL, updated_at datetime DEFAULT NULL, PRIMARY KEY (id)) ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8;
SHOW TABLES;
CREATE INDEX index_people_on_age_and_status USING btree ON people (age,status);
CREATE INDEX index_hobbies_on_person_id USING btree ON hobbies (person_id);
SHOW INDEXES FROM people;
SHOW CREATE TABLE people;
SHOW CREATE TABLE hobbies;
-- The specs' factories: people and their hobbies, read back by id and by the (age, status) key.
INSERT INTO people (name, age, status) VALUES ('Bob Marley', 36, 1), ('Pharrell Williams', 41, 1), ('Mick Jagger', 71, 0);
INSERT INTO people (name) VALUES ('nobody');
INSERT INTO hobbies (person_id, title, created_at, updated_at) VALUES (1, 'music', '2014-09-01 10:00:00', '2014-09-01 10:00:00'), (1, 'football', '2014-09-02 11:30:00', NULL), (2, 'fashion', NULL, NULL);
SELECT id, name, age, status FROM people ORDER BY id;
SELECT id, name FROM people WHERE age = 41 AND status = 1;
SELECT p.name, h.title, h.created_at FROM people p JOIN hobbies h ON h.person_id = p.id ORDER BY h.id;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus_ar_handler_socket_test' AND TABLE_NAME = 'people';
DROP DATABASE corpus_ar_handler_socket_test;
