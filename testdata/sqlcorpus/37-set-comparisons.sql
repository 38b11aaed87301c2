-- A SET compared with text is compared as its text, as MariaDB compares
-- them (issue #27's wrong answers, found by scripts/expr-sweep.sh): the
-- order of the members counts (s = 'c,a' is false for the set a,c), and
-- a string naming no member is unequal; go-mysql-server converted the
-- text to the SET (so 'c,a' matched) and failed the statement on a
-- string that named no member. Compared with a number, a SET is its bits.
CREATE TABLE st (id INT PRIMARY KEY, s SET('a','b','c'), e ENUM('x','y','z'));
INSERT INTO st VALUES (1, 'a,c', 'y'), (2, '', 'x'), (3, 'b', 'z'), (4, NULL, NULL);
SELECT id, s = 'c,a', s = 'a,c', s > 'a', s = 5, s = 'b', s <=> 'a,c', 'a,c' = s FROM st ORDER BY id;
SELECT id FROM st WHERE s = 'zzz';
SELECT id FROM st WHERE s = 'a,zzz' OR s = 'b' ORDER BY id;
SELECT id FROM st WHERE s < 'b' ORDER BY id;
SELECT id, s = CONCAT('a', ',c') FROM st ORDER BY id;
SELECT id, e = 'q', e > 'q', e = 'y' FROM st ORDER BY id;
SELECT COUNT(*) FROM st WHERE s >= '';
