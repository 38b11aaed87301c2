-- What one session can show of transactions: the isolation and lock wait
-- variables, a transaction's own writes, rollback, savepoints, autocommit
-- off, and the locking read clauses. What sessions see of each other
-- (snapshots, row locks, 1205, 1213) is in internal/sqlfront/txn_test.go.
SELECT @@tx_isolation, @@session.tx_isolation, @@global.tx_isolation;
-- deviation: go-mysql-server also has transaction_isolation (MySQL 8's name) and no innodb_snapshot_isolation
SHOW VARIABLES LIKE '%isolation%';
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
SELECT @@tx_isolation;
SET tx_isolation = 'SERIALIZABLE';
SELECT @@tx_isolation;
SET SESSION tx_isolation = 'read-uncommitted';
SELECT @@tx_isolation;
SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT @@tx_isolation;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SELECT @@tx_isolation;
START TRANSACTION;
SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'no_such_db';
COMMIT;
SELECT @@innodb_lock_wait_timeout, @@global.innodb_lock_wait_timeout;
SHOW VARIABLES LIKE 'innodb_lock_wait_timeout';
SET innodb_lock_wait_timeout = 5;
SELECT @@innodb_lock_wait_timeout, @@session.innodb_lock_wait_timeout, @@global.innodb_lock_wait_timeout;
SET SESSION innodb_lock_wait_timeout = 50;
CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(10), v INT, KEY by_owner (owner));
INSERT INTO acct VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', 30);
START TRANSACTION;
INSERT INTO acct VALUES (4, 'dee', 40);
UPDATE acct SET v = v + 1 WHERE id = 1;
DELETE FROM acct WHERE id = 2;
SELECT id, owner, v FROM acct ORDER BY id;
SELECT id, v FROM acct WHERE owner >= 'b' ORDER BY owner;
SELECT SUM(v), COUNT(*) FROM acct;
SELECT id, v FROM acct WHERE id = 1 FOR UPDATE;
SELECT id, v FROM acct WHERE id IN (3, 4) LOCK IN SHARE MODE;
SELECT a.id, b.id FROM acct a JOIN acct b ON b.id = a.id + 2 ORDER BY a.id FOR UPDATE;
SELECT id FROM acct ORDER BY v DESC LIMIT 1 FOR UPDATE;
ROLLBACK;
SELECT id, owner, v FROM acct ORDER BY id;
START TRANSACTION WITH CONSISTENT SNAPSHOT;
SELECT COUNT(*) FROM acct;
UPDATE acct SET v = 0 WHERE id = 3;
SAVEPOINT s1;
UPDATE acct SET v = 99 WHERE id = 1;
SELECT id, v FROM acct ORDER BY id;
ROLLBACK TO SAVEPOINT s1;
SELECT id, v FROM acct ORDER BY id;
COMMIT;
SELECT id, v FROM acct ORDER BY id;
SET autocommit = 0;
INSERT INTO acct VALUES (5, 'eve', 50);
SELECT id, v FROM acct WHERE id = 5;
ROLLBACK;
SELECT id, v FROM acct WHERE id = 5;
UPDATE acct SET v = 31 WHERE id = 3;
COMMIT;
SET autocommit = 1;
SELECT id, v FROM acct WHERE id = 3 FOR UPDATE;
SELECT id, v FROM acct WHERE id = 3 LOCK IN SHARE MODE;
SELECT owner FROM acct WHERE owner = 'cy' FOR UPDATE;
-- deviation: a UNION with FOR UPDATE fails in go-mysql-server with 1105 result max1Row iterator returned more than one row (so it did before row locks)
SELECT id FROM acct WHERE id > 1 UNION SELECT id FROM acct WHERE id = 1 FOR UPDATE;
START TRANSACTION READ ONLY;
SELECT id, v FROM acct WHERE id = 1;
UPDATE acct SET v = 1 WHERE id = 1;
COMMIT;
SELECT id, v FROM acct WHERE id = 1;
