-- The statements a stored function's body is made of, as compiled
-- functions run them (storedprog): SELECT ... INTO finding one row, none
-- or several; NOT FOUND handlers; loops, labels and nested blocks; the
-- scopes of variables and a variable hiding a column; string parameters
-- compared in the column's collation; subqueries in expressions; one
-- function calling another; the conversions of arguments and assignments
-- to the declared types; a body that ends without RETURN.
CREATE TABLE t (id INT PRIMARY KEY, grp INT, qty INT, name VARCHAR(20), KEY (grp));
INSERT INTO t VALUES (1, 1, 10, 'pen'), (2, 1, 3, 'ink'), (3, 2, 99, 'lamp'), (4, 2, NULL, 'Desk'), (5, 3, 7, 'desk');
-- SELECT INTO: one row, a NULL, no row (the variable keeps its value), NULL arguments.
CREATE FUNCTION qty_or(i INT, d INT) RETURNS INT READS SQL DATA BEGIN DECLARE q INT DEFAULT d; SELECT qty INTO q FROM t WHERE id = i; RETURN q; END;
SELECT qty_or(1, -1), qty_or(4, -1), qty_or(9, -1), qty_or(NULL, -2), qty_or(2, NULL);
CREATE FUNCTION one_of(g INT) RETURNS INT READS SQL DATA BEGIN DECLARE q INT; SELECT qty INTO q FROM t WHERE grp = g; RETURN q; END;
SELECT one_of(3), one_of(9);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT one_of(1);
-- NOT FOUND handlers: EXIT leaves the body, CONTINUE goes on after the statement.
CREATE FUNCTION held(i INT) RETURNS VARCHAR(20) READS SQL DATA BEGIN DECLARE n VARCHAR(20); DECLARE EXIT HANDLER FOR NOT FOUND RETURN 'none'; SELECT name INTO n FROM t WHERE id = i; RETURN n; END;
SELECT held(1), held(5), held(42), held(NULL);
CREATE FUNCTION counted(i INT) RETURNS INT READS SQL DATA BEGIN DECLARE misses INT DEFAULT 0; DECLARE q INT; DECLARE CONTINUE HANDLER FOR NOT FOUND SET misses = misses + 1; SELECT qty INTO q FROM t WHERE id = i; SELECT qty INTO q FROM t WHERE id = i + 1; SELECT qty INTO q FROM t WHERE id = i + 2; RETURN misses * 1000 + IFNULL(q, 0); END;
SELECT counted(1), counted(3), counted(4), counted(9);
CREATE FUNCTION exit_no_return(i INT) RETURNS INT READS SQL DATA BEGIN DECLARE q INT; DECLARE EXIT HANDLER FOR NOT FOUND SET q = 0; SELECT qty INTO q FROM t WHERE id = i; RETURN q; END;
SELECT exit_no_return(1);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT exit_no_return(9);
-- Loops: WHILE, REPEAT, LOOP with LEAVE and ITERATE.
CREATE FUNCTION tri(n INT) RETURNS INT DETERMINISTIC BEGIN DECLARE s INT DEFAULT 0; DECLARE i INT DEFAULT 1; WHILE i <= n DO SET s = s + i; SET i = i + 1; END WHILE; RETURN s; END;
SELECT tri(0), tri(1), tri(10), tri(NULL);
CREATE FUNCTION odd_sum(n INT) RETURNS INT DETERMINISTIC BEGIN DECLARE s INT DEFAULT 0; DECLARE i INT DEFAULT 0; l: LOOP SET i = i + 1; IF i > n THEN LEAVE l; END IF; IF i % 2 = 0 THEN ITERATE l; END IF; SET s = s + i; END LOOP l; RETURN s; END;
SELECT odd_sum(0), odd_sum(9);
CREATE FUNCTION digits(n BIGINT) RETURNS INT DETERMINISTIC BEGIN DECLARE d INT DEFAULT 0; REPEAT SET d = d + 1; SET n = n DIV 10; UNTIL n = 0 END REPEAT; RETURN d; END;
SELECT digits(0), digits(7), digits(12345), digits(-100);
-- Scopes: an inner block's variable hides the outer one; LEAVE of a block; a variable hides a column.
CREATE FUNCTION scoped(x INT) RETURNS VARCHAR(40) DETERMINISTIC BEGIN DECLARE v INT DEFAULT x; b: BEGIN DECLARE v INT DEFAULT x * 10; IF v > 50 THEN LEAVE b; END IF; SET x = v; END b; RETURN CONCAT(v, '/', x); END;
SELECT scoped(2), scoped(9);
CREATE FUNCTION above(qty INT) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT COUNT(*) INTO n FROM t WHERE t.qty > qty; RETURN n; END;
SELECT above(0), above(9), above(NULL);
-- Strings: a parameter compared with a column in the column's collation.
CREATE FUNCTION grp_of(nm VARCHAR(20)) RETURNS INT READS SQL DATA BEGIN DECLARE g INT DEFAULT -1; SELECT grp INTO g FROM t WHERE name = nm ORDER BY id LIMIT 1; RETURN g; END;
SELECT grp_of('lamp'), grp_of('LAMP'), grp_of('desk'), grp_of('chair');
-- IF / ELSEIF / ELSE, a subquery in an expression, calls from a query with GROUP BY, a function calling another.
CREATE FUNCTION size_of(i INT) RETURNS VARCHAR(10) READS SQL DATA BEGIN DECLARE q INT; SET q = (SELECT qty FROM t WHERE id = i); IF q IS NULL THEN RETURN 'unknown'; ELSEIF q < 5 THEN RETURN 'small'; ELSEIF q < 50 THEN RETURN 'medium'; ELSE RETURN 'large'; END IF; END;
SELECT id, size_of(id), qty_or(id, 0) + tri(grp) AS mixed FROM t ORDER BY id;
SELECT grp, SUM(qty_or(id, 100)) AS s, GROUP_CONCAT(size_of(id) ORDER BY id) AS sizes FROM t GROUP BY grp ORDER BY grp;
CREATE FUNCTION outer_fn(i INT) RETURNS VARCHAR(30) READS SQL DATA BEGIN DECLARE s VARCHAR(10); SET s = size_of(i); RETURN CONCAT(s, ':', held(i)); END;
SELECT outer_fn(1), outer_fn(4), outer_fn(8);
-- Random calls of the functions above (generated once, recorded on MariaDB).
SELECT grp_of('ink'), size_of(NULL), outer_fn(2);
SELECT qty_or(8, -1), above(NULL), grp_of('Desk');
SELECT qty_or(NULL, 7), grp_of(NULL), outer_fn(-1);
SELECT scoped(NULL), size_of(4), size_of(NULL);
SELECT odd_sum(-1), size_of(2), counted(2);
SELECT id, held(id + 0) AS a, size_of(id - 0) AS b FROM t ORDER BY id;
SELECT counted(3), held(4), one_of(NULL);
SELECT counted(0), above(6), above(3);
SELECT grp_of('lamp'), held(NULL), outer_fn(5);
SELECT above(5), odd_sum(8), counted(0);
SELECT grp_of('ink'), scoped(1), above(4);
SELECT id, size_of(id + 3) AS a, size_of(id - 3) AS b FROM t ORDER BY id;
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT outer_fn(4), odd_sum(8), one_of(2);
SELECT digits(-333561306), grp_of('desk'), one_of(9);
SELECT odd_sum(3), qty_or(-1, 6), qty_or(2, 8);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT grp_of('pen'), one_of(2), outer_fn(NULL);
SELECT size_of(3), odd_sum(6), counted(4);
SELECT id, held(id + 2) AS a, size_of(id - 2) AS b FROM t ORDER BY id;
SELECT qty_or(7, -2), counted(-1), scoped(2);
SELECT odd_sum(7), qty_or(3, NULL), above(3);
SELECT above(5), size_of(-1), tri(4);
SELECT held(5), one_of(3), held(0);
SELECT counted(3), qty_or(8, 3), grp_of('ink');
SELECT id, size_of(id + -1) AS a, size_of(id - -1) AS b FROM t ORDER BY id;
SELECT tri(7), size_of(0), above(1);
SELECT digits(393942771), grp_of('desk'), tri(4);
SELECT tri(4), one_of(NULL), qty_or(2, -1);
SELECT above(-1), scoped(5), grp_of('PEN');
SELECT above(-1), tri(NULL), outer_fn(1);
SELECT id, qty_or(id + 2, id) AS a, size_of(id - 2) AS b FROM t ORDER BY id;
-- Conversions: arguments and assignments take the declared type; out of range and too long are errors in strict mode.
CREATE FUNCTION tiny(p TINYINT) RETURNS INT DETERMINISTIC RETURN p;
SELECT tiny(12), tiny(-128);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT tiny(300);
CREATE FUNCTION frac(p DECIMAL(6,2)) RETURNS DECIMAL(8,3) DETERMINISTIC BEGIN DECLARE d DECIMAL(6,1); SET d = p; RETURN d + p; END;
SELECT frac(1.25), frac(3), frac(-0.04);
CREATE FUNCTION short(s VARCHAR(3)) RETURNS VARCHAR(10) DETERMINISTIC RETURN CONCAT('<', s, '>');
SELECT short('ab'), short('');
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT short('abcd');
-- A body that ends without RETURN.
CREATE FUNCTION maybe(x INT) RETURNS INT DETERMINISTIC BEGIN IF x > 0 THEN RETURN x; END IF; END;
SELECT maybe(3);
-- deviation: the error is MariaDB's, but sent before the result set; MariaDB sends the column line first
SELECT maybe(-3);
