-- The forms report queries use, one by one, on a small table: time values
-- in string functions, date arithmetic and its types, windows ordered by
-- aggregates, WITH ROLLUP, user variables assigned in a SELECT, UNIONs of
-- aggregates, JSON paths.
CREATE TABLE ev (
  id INT NOT NULL PRIMARY KEY,
  kind ENUM('open','close','note') NOT NULL,
  grp CHAR(1) NOT NULL,
  day DATE NULL,
  at DATETIME NOT NULL,
  at3 DATETIME(3) NULL,
  ts TIMESTAMP NULL,
  amount DECIMAL(8,2) NOT NULL,
  n INT NOT NULL,
  doc VARCHAR(100) NULL
);
INSERT INTO ev VALUES
  (1, 'open', 'a', '2024-01-05', '2024-01-05 08:00:00', '2024-01-05 08:00:00.125', '2024-01-05 08:00:00', 10.50, 3, '{"a": 1, "b": [1, 2]}'),
  (2, 'close', 'a', '2024-01-31', '2024-01-31 17:30:00', NULL, NULL, 4.25, 1, '{"a": 2}'),
  (3, 'note', 'b', NULL, '2024-02-29 23:59:59', '2024-02-29 23:59:59.999', '2024-02-29 23:59:59', 7.00, 5, '[]'),
  (4, 'open', 'b', '2024-03-01', '2024-03-01 00:00:00', '2024-03-01 00:00:00.000', NULL, 1.75, 2, NULL),
  (5, 'close', 'c', '0000-00-00', '2024-12-31 12:00:00', NULL, '2024-12-31 12:00:00', 20.00, 4, '{"b": []}'),
  (6, 'note', 'a', '2024-01-05', '2024-01-06 09:15:00', '2024-01-06 09:15:00.500', NULL, 3.00, 3, '{}');
CREATE VIEW ev_v AS SELECT id, kind, day, at, at3 FROM ev;
-- Time values and ENUMs in string functions.
SELECT id, CONCAT(kind, ':', day), CONCAT_WS(' | ', kind, day, at, at3, ts) FROM ev ORDER BY id;
SELECT id, LENGTH(day), HEX(day), REPLACE(day, '-', '/'), LOWER(kind), UPPER(kind), LENGTH(kind), HEX(kind) FROM ev ORDER BY id;
SELECT id, SUBSTRING(at, 1, 10), LEFT(at3, 19), RIGHT(at3, 4), LPAD(day, 12, '*'), REVERSE(day) FROM ev ORDER BY id;
SELECT id, CONCAT(day), CONCAT(at3), CONCAT(kind) FROM ev_v ORDER BY id;
SELECT id, CONCAT(d) FROM (SELECT id, day AS d FROM ev) t ORDER BY id;
SELECT id, day LIKE '%-05', at LIKE '2024-01%', CAST(day AS CHAR), CAST(at3 AS CHAR) FROM ev ORDER BY id;
SELECT grp, GROUP_CONCAT(day ORDER BY id SEPARATOR ','), CONCAT(MAX(day)), CONCAT(MIN(at3)) FROM ev GROUP BY grp ORDER BY grp;
SELECT id, JSON_ARRAY(day, at) FROM ev WHERE id <= 2 ORDER BY id;
SELECT id, CONCAT(IFNULL(day, '-')), CONCAT(COALESCE(day, day)), CONCAT(IFNULL(day, at)), CONCAT(IFNULL(at3, day)), CONCAT(IF(id = 1, day, NULL)) FROM ev ORDER BY id;
SELECT SUM(CRC32(CONCAT_WS('#', id, kind, day, at, at3, ts))) FROM ev;
SELECT id, IFNULL(kind, 'x'), IF(id > 2, kind, 'z'), COALESCE(kind, 'q'), CASE WHEN id > 3 THEN kind ELSE 'n' END, CONCAT(IFNULL(kind, 'x')), UPPER(CASE WHEN id > 0 THEN kind END) FROM ev ORDER BY id;
SELECT grp, GROUP_CONCAT(kind ORDER BY kind, id), GROUP_CONCAT(id ORDER BY kind DESC, id), JSON_ARRAY(MAX(kind)), CONCAT(MIN(kind)) FROM ev GROUP BY grp ORDER BY grp;
SELECT CASE kind WHEN 'open' THEN 'o' WHEN 'note' THEN 'n' ELSE 'c' END AS k, COUNT(*) FROM ev GROUP BY k ORDER BY k;
SELECT grp, MAX(kind), MIN(kind) FROM ev GROUP BY grp HAVING MAX(kind) > 'n' ORDER BY grp;
SELECT grp, MAX(kind) AS m FROM ev GROUP BY grp ORDER BY m DESC, grp;
SELECT grp, MAX(kind) AS m FROM ev GROUP BY grp HAVING m > 'n' ORDER BY grp;
-- Date arithmetic keeps MariaDB's types.
SELECT id, DATE_ADD(at, INTERVAL 1 DAY), DATE_SUB(at, INTERVAL 1 SECOND), at + INTERVAL 2 HOUR, ADDDATE(at, 3), SUBDATE(at, 3) FROM ev ORDER BY id;
SELECT id, DATE_ADD(at3, INTERVAL 1 DAY), at3 - INTERVAL 1 MINUTE, DATE_ADD(ts, INTERVAL 1 DAY), DATE_ADD(at, INTERVAL 5 MICROSECOND) FROM ev ORDER BY id;
SELECT id, DATE_ADD(day, INTERVAL 1 DAY), day + INTERVAL 1 MONTH, INTERVAL 1 WEEK + day, day - INTERVAL 1 YEAR, day + INTERVAL 6 HOUR FROM ev WHERE id <> 5 ORDER BY id;
SELECT id, TIMESTAMPDIFF(HOUR, DATE_ADD(at, INTERVAL n DAY), at), DATEDIFF(day + INTERVAL n DAY, day) FROM ev WHERE id <> 5 ORDER BY id;
SELECT id FROM ev WHERE at > day + INTERVAL 0 DAY AND day IS NOT NULL ORDER BY id;
WITH RECURSIVE days (k, d) AS (
  SELECT 1, CAST('2024-01-01' AS DATE)
  UNION ALL
  SELECT k + 1, d + INTERVAL 1 MONTH FROM days WHERE k < 4
)
SELECT k, d, CONCAT(d), (SELECT COUNT(*) FROM ev WHERE ev.at >= days.d AND ev.at < days.d + INTERVAL 1 MONTH) AS n FROM days ORDER BY k;
WITH RECURSIVE days (k, d) AS (
  SELECT 1, CAST('2024-01-01' AS DATE)
  UNION ALL
  SELECT k + 1, DATE_ADD(d, INTERVAL 7 DAY) FROM days WHERE k < 3
)
SELECT k, d FROM days ORDER BY k;
WITH RECURSIVE t (k, d, at, lit) AS (
  SELECT 1, day, at3, DATE '2024-01-01' FROM ev WHERE id = 1
  UNION ALL
  SELECT k + 1, d + INTERVAL 1 DAY, at + INTERVAL 1 SECOND, lit + INTERVAL 1 YEAR FROM t WHERE k < 3
)
SELECT k, d, at, lit, CONCAT(d, ' ', at), DATE_ADD(lit, INTERVAL 1 DAY) FROM t ORDER BY k;
SELECT DATE '2024-02-29', TIMESTAMP '2024-02-29 10:00:00.5', CONCAT(DATE '2024-02-29'), DATE '2024-02-29' + INTERVAL 1 DAY;
-- Window functions over a grouped query.
SELECT grp, COUNT(*) AS c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, grp) AS rn FROM ev GROUP BY grp ORDER BY rn;
SELECT grp, kind, SUM(amount) AS total, RANK() OVER (PARTITION BY grp ORDER BY SUM(amount) DESC) AS r,
       DENSE_RANK() OVER (ORDER BY COUNT(*)) AS dr FROM ev GROUP BY grp, kind ORDER BY grp, r, kind;
SELECT grp, SUM(n) AS s, SUM(SUM(n)) OVER () AS total, ROUND(SUM(n) * 100 / SUM(SUM(n)) OVER (), 1) AS pct,
       SUM(SUM(n)) OVER (ORDER BY grp) AS running FROM ev GROUP BY grp ORDER BY grp;
SELECT grp, MAX(at) AS last_at, LAG(MAX(at)) OVER (ORDER BY grp) AS prev, COUNT(*) - LAG(COUNT(*)) OVER (ORDER BY grp) AS delta FROM ev GROUP BY 1 ORDER BY 1;
SELECT COUNT(*) AS c, ROW_NUMBER() OVER () AS rn FROM ev;
SELECT DISTINCT kind, COUNT(*) OVER () AS kinds FROM ev GROUP BY kind ORDER BY kind;
SELECT grp AS g, COUNT(*) AS c, ROW_NUMBER() OVER (ORDER BY grp DESC) AS rn FROM ev WHERE n > 1 GROUP BY grp HAVING COUNT(*) > 1 ORDER BY c DESC, g LIMIT 2;
SELECT grp, COUNT(*) AS c, ROW_NUMBER() OVER w AS rn, SUM(COUNT(*)) OVER (w2 ORDER BY grp) AS s FROM ev GROUP BY grp
  WINDOW w AS (ORDER BY COUNT(*) DESC, grp), w2 AS (PARTITION BY COUNT(*) > 1) ORDER BY rn;
-- GROUP BY ... WITH ROLLUP.
SELECT grp, kind, SUM(amount) AS total, COUNT(*) FROM ev GROUP BY grp, kind WITH ROLLUP;
SELECT grp, COUNT(*) AS c, MAX(n) FROM ev GROUP BY grp WITH ROLLUP;
SELECT YEAR(at) AS y, MONTH(at) AS m, COUNT(*) AS c, SUM(n) FROM ev GROUP BY YEAR(at), MONTH(at) WITH ROLLUP;
SELECT n DIV 2 AS half, COUNT(*) AS c FROM ev GROUP BY half WITH ROLLUP;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY 1 WITH ROLLUP;
SELECT day, COUNT(*) AS c FROM ev GROUP BY day WITH ROLLUP;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP HAVING COUNT(*) > 1;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP HAVING c > 1;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP HAVING grp IS NULL OR grp = 'a';
SELECT grp, kind, COUNT(*) AS c FROM ev GROUP BY grp, kind WITH ROLLUP HAVING kind IS NULL;
-- deviation: a HAVING on a grouping column reads, in a rollup row, the greatest value of the rows it sums (MariaDB's last group, as the two statements before show), but MariaDB leaves this grand total out
SELECT grp, kind, COUNT(*) AS c FROM ev GROUP BY grp, kind WITH ROLLUP HAVING grp <> 'b' AND c > 1;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP LIMIT 2;
SELECT grp, COUNT(*) AS c FROM ev WHERE n > 100 GROUP BY grp WITH ROLLUP;
SELECT grp, CONCAT(grp, '!') AS g2, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP;
SELECT grp, COUNT(*) AS c FROM ev GROUP BY grp WITH ROLLUP ORDER BY c;
SELECT * FROM (SELECT grp, SUM(n) AS s FROM ev GROUP BY grp WITH ROLLUP) t ORDER BY s, grp;
-- Assignment to user variables inside a SELECT.
SET @n := 0;
SELECT @n := @n + 1 AS pos, grp, kind FROM (SELECT grp, kind FROM ev ORDER BY grp, id LIMIT 100) t;
SELECT @n;
SET @run := 0;
SELECT id, n, @run := @run + n AS running, @run * 2 AS twice FROM (SELECT id, n FROM ev ORDER BY id LIMIT 100) t;
SELECT @n := @n + 1, @m := @n * 2 x, id FROM ev WHERE id < 3 ORDER BY id;
SELECT @n, @m;
SET @prev := NULL, @rk := 0;
SELECT grp, n, @rk := IF(@prev = grp, @rk + 1, 1) AS rk, @prev := grp AS p FROM (SELECT grp, n FROM ev ORDER BY grp, n DESC, id LIMIT 100) t;
SELECT @c := COUNT(*) FROM ev;
SELECT id FROM ev WHERE (@w := n) > 3 ORDER BY id;
SELECT @c, @w;
SET @a := (SELECT @b := 5);
SELECT @a, @b, @s := 'x' AS s, @t:=CONCAT(@s, 'y') t, @`my var` := 3;
SELECT @t, @`my var` + 0 AS v;
-- UNIONs of aggregates: COUNT beside SUM and AVG of DECIMAL.
SELECT 'sum' AS k, SUM(amount) AS v FROM ev UNION ALL SELECT 'count', COUNT(*) FROM ev UNION ALL SELECT 'avg', AVG(amount) FROM ev ORDER BY k;
SELECT COUNT(*) AS v FROM ev UNION ALL SELECT SUM(amount) FROM ev;
SELECT MAX(n) AS v FROM ev UNION SELECT AVG(amount) FROM ev ORDER BY v;
SELECT k, v FROM (SELECT 'a' AS k, SUM(amount) AS v FROM ev UNION ALL SELECT 'b', COUNT(*) FROM ev) t ORDER BY k;
SELECT grp, SUM(amount) AS v FROM ev GROUP BY grp UNION ALL SELECT 'all', SUM(amount) FROM ev ORDER BY grp;
SELECT * FROM (SELECT grp, SUM(amount) AS v FROM ev GROUP BY grp UNION ALL SELECT 'x', SUM(amount) FROM ev) t ORDER BY grp;
-- JSON paths: a missing member is NULL, the length of an empty array 0.
SELECT id, JSON_EXTRACT(doc, '$.b'), JSON_EXTRACT(doc, '$.b[1]'), JSON_EXTRACT(doc, '$.a'), JSON_LENGTH(doc), JSON_LENGTH(doc, '$.b') FROM ev ORDER BY id;
SELECT JSON_EXTRACT('{"a": 1}', '$.b'), JSON_EXTRACT('[1, 2]', '$.b'), JSON_EXTRACT('[1, 2]', '$[5]'), JSON_EXTRACT('[{"a": 1}]', '$.a'), JSON_EXTRACT('[1, [2, 3]]', '$[1][0]');
SELECT JSON_EXTRACT('1', '$[0]'), JSON_EXTRACT('{"a": 1}', '$[0]'), JSON_EXTRACT('{"a": [1, 2]}', '$.a', '$.b'), JSON_EXTRACT('{"a": [1, 2]}', '$.x', '$.b'), JSON_EXTRACT('{"a b": 3}', '$."a b"');
SELECT JSON_LENGTH('[]'), JSON_LENGTH('{}'), JSON_LENGTH('{"a": []}', '$.a'), JSON_LENGTH('[1]', '$.x'), JSON_LENGTH('[1, [2, 3]]', '$[1]'), JSON_LENGTH('"x"');
SELECT grp, COUNT(*) FROM ev WHERE JSON_EXTRACT(doc, '$.b') IS NULL GROUP BY grp ORDER BY grp;
SELECT JSON_UNQUOTE(JSON_EXTRACT('{"s": "text"}', '$.s')), JSON_EXTRACT('{"a": {"b": null}}', '$.a.b'), JSON_EXTRACT(NULL, '$.a'), JSON_EXTRACT('{"a": 1}', NULL);
