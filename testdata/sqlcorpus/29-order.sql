-- ORDER BY over text under PAD SPACE collations ('a' and 'a ' are equal,
-- so the next key orders them), case and accent folding, NULLs, descending
-- and computed keys, with and without LIMIT (HandlerDB's keyed sort and its
-- bounded TopN). Every ORDER BY ends with id, so the order is total.
CREATE TABLE s (id INT PRIMARY KEY, g VARCHAR(20) COLLATE utf8mb4_general_ci NULL, u VARCHAR(20) COLLATE utf8mb4_unicode_ci NULL, n INT NULL, c CHAR(10) NULL, b VARCHAR(10) COLLATE utf8mb4_bin NULL);
INSERT INTO s VALUES
  (1, 'straße', 'ABC', 1, 'ß', NULL),
  (2, 'e', 'ée', 14, 'E', NULL),
  (3, 'é', 'b  ', 2, 'Zz', 'ée'),
  (4, NULL, NULL, 13, 'Ω', 'abd'),
  (5, NULL, 'b  ', -4, '', 'straße'),
  (6, NULL, 'E', 1, 'straße', 'é'),
  (7, 'Abc', 'Ω', NULL, 'ABC', NULL),
  (8, 'b  ', 'Ω', 1, 'abd', 'ABC'),
  (9, 'ABC', 'abd', 9, 'Abc', 'a'),
  (10, 'zz', 'ß', 14, 'ABC', NULL),
  (11, NULL, 'abd', 13, 'ABC', 'b  '),
  (12, NULL, 'ABC', NULL, 'straße', 'Abc'),
  (13, 'Abc', NULL, 0, NULL, 'Ω'),
  (14, 'ß', 'B', NULL, 'Zz', NULL),
  (15, 'E', 'ée', NULL, 'ée', 'b  '),
  (16, 'b  ', 'Abc', 7, 'B', 'é'),
  (17, NULL, 'Zz', -4, '', 'E'),
  (18, 'ß', 'ß', 5, 'abc', 'abd'),
  (19, NULL, 'E', NULL, 'é', 'é'),
  (20, 'e', 'ss', NULL, NULL, NULL),
  (21, 'abd', 'E', 10, 'e', 'ABC'),
  (22, 'a', 'E', -5, 'strasse', ''),
  (23, 'ω', 'ABC', 3, 'Zz', NULL),
  (24, 'e', 'ée', -4, 'ω', 'ss'),
  (25, NULL, 'E', 8, 'a ', 'abc'),
  (26, 'abc', NULL, 11, 'é', 'B'),
  (27, 'abd', 'Zz', -3, 'B', 'straße'),
  (28, 'abd', 'B', 14, 'zz', 'ée'),
  (29, 'a ', 'ée', -1, 'é', 'ABC'),
  (30, 'abd', 'ß', 14, 'ée', 'strasse'),
  (31, 'Abc', 'Abc', 1, 'ω', 'ABC'),
  (32, 'B', 'ω', NULL, 'abd', 'zz'),
  (33, 'straße', 'E', 8, 'E', 'b  '),
  (34, 'Zz', 'ß', -1, 'strasse', 'ss'),
  (35, 'é', 'B', NULL, 'ss', 'ω'),
  (36, NULL, 'straße', 13, NULL, NULL),
  (37, 'zz', 'ω', 0, 'ss', NULL),
  (38, 'zz', 'Ω', 13, 'é', NULL),
  (39, 'ß', 'é', 11, 'abd', 'Zz'),
  (40, 'straße', 'ß', -4, 'ω', 'ABC'),
  (41, 'B', 'é', 3, 'zz', NULL),
  (42, 'b  ', 'e', 12, 'zz', 'B'),
  (43, 'a ', '', 10, 'ß', 'a '),
  (44, 'Zz', 'ß', 12, 'zz', 'ω'),
  (45, 'Zz', 'e', NULL, 'b  ', 'ß'),
  (46, 'Abc', 'é', 1, 'ß', 'ABC'),
  (47, 'ée', 'a ', 10, 'e', 'ABC'),
  (48, NULL, 'ABC', 1, '', 'zz'),
  (49, 'ABC', 'Abc', 8, 'zz', 'strasse'),
  (50, 'abc', 'B', -5, 'abd', 'strasse'),
  (51, 'a ', '', 4, 'a', 'a '),
  (52, 'b  ', NULL, 3, 'abd', 'zz'),
  (53, 'ABC', 'ée', NULL, 'ABC', 'Abc'),
  (54, 'Ω', 'ß', 2, 'ß', 'a '),
  (55, 'Abc', NULL, 13, 'abc', 'é'),
  (56, 'a ', NULL, -1, 'ω', 'ABC'),
  (57, 'Ω', 'E', 4, 'E', 'a '),
  (58, 'abd', 'straße', -3, NULL, NULL),
  (59, 'e', 'ω', 8, 'abc', 'ω'),
  (60, 'b  ', 'Ω', -1, NULL, 'ABC'),
  (61, 'strasse', 'é', 10, 'abd', 'ß'),
  (62, 'ée', NULL, 13, 'é', NULL),
  (63, 'Abc', 'ω', 14, 'ss', 'é'),
  (64, 'ω', 'b  ', 13, 'b  ', 'é'),
  (65, 'E', 'E', 11, '', 'Zz'),
  (66, 'zz', 'Zz', 11, 'ss', 'ABC'),
  (67, 'a ', 'B', NULL, 'Ω', 'ABC'),
  (68, 'strasse', 'ée', 5, 'ABC', NULL),
  (69, 'E', 'zz', 0, NULL, 'Zz'),
  (70, 'strasse', 'ss', 10, 'ée', ''),
  (71, 'ss', NULL, 2, 'ß', 'B'),
  (72, 'a ', 'a', 13, 'E', NULL),
  (73, 'Zz', 'Ω', -4, 'B', NULL),
  (74, 'ss', 'ß', 10, 'a', 'strasse'),
  (75, 'strasse', 'é', -1, 'ß', 'ABC'),
  (76, 'abd', 'ée', 2, 'straße', 'ß'),
  (77, 'ée', 'ss', 11, 'zz', NULL),
  (78, 'strasse', NULL, 0, 'ω', 'e'),
  (79, 'é', 'E', 7, '', 'b  '),
  (80, NULL, 'abd', 3, 'Ω', 'ée'),
  (81, NULL, 'E', 9, 'ss', 'é'),
  (82, 'Zz', 'ß', 2, 'zz', 'Abc'),
  (83, '', NULL, 7, 'b  ', 'e'),
  (84, 'a', NULL, -1, 'Zz', 'a'),
  (85, '', 'Zz', 3, 'Abc', 'Ω'),
  (86, 'E', 'a ', 12, 'ω', 'a'),
  (87, 'Zz', 'ss', 8, 'strasse', NULL),
  (88, 'B', '', 7, 'zz', 'ABC'),
  (89, 'ß', 'E', 0, 'a', 'Zz'),
  (90, 'b  ', 'E', -4, 'strasse', 'b  '),
  (91, 'a', 'abc', NULL, 'strasse', 'ABC'),
  (92, 'Zz', NULL, NULL, 'ß', 'ss'),
  (93, 'E', 'Abc', -2, 'strasse', 'b  '),
  (94, 'Abc', 'straße', 1, 'a', NULL),
  (95, 'ω', 'ABC', 9, 'é', ''),
  (96, 'zz', NULL, -3, 'abd', NULL),
  (97, 'Ω', 'E', NULL, 'E', 'E'),
  (98, NULL, 'abc', 10, 'Zz', 'e'),
  (99, 'ée', 'a', NULL, 'zz', 'abc'),
  (100, 'ß', 'b  ', 5, 'a ', 'B'),
  (101, 'a ', 'ABC', 12, 'e', 'Zz'),
  (102, 'a', 'a', 2, 'ss', 'é'),
  (103, 'é', 'ée', 10, NULL, 'straße'),
  (104, 'Zz', '', -5, 'ω', 'ss'),
  (105, 'ß', 'ω', -4, NULL, 'Zz'),
  (106, NULL, 'Zz', -5, 'zz', 'Abc'),
  (107, NULL, 'ω', 7, 'abd', ''),
  (108, 'e', 'abd', 14, 'straße', 'é'),
  (109, 'ss', 'B', 1, 'zz', 'ss'),
  (110, 'B', 'Ω', 2, 'ée', 'é'),
  (111, 'Abc', 'ss', 14, 'ω', NULL),
  (112, 'b  ', 'strasse', -1, 'strasse', 'e'),
  (113, 'abd', 'e', 10, 'Abc', 'Zz'),
  (114, 'Zz', 'zz', -3, 'Zz', 'ω'),
  (115, 'ω', 'Ω', -3, 'é', 'é'),
  (116, 'Zz', 'ß', 4, 'zz', 'b  '),
  (117, 'b  ', 'a', 1, 'a ', NULL),
  (118, 'E', NULL, 0, 'ss', 'Zz'),
  (119, '', 'ABC', -3, 'zz', 'strasse'),
  (120, 'B', 'ée', 14, 'ss', 'ω');
SELECT id, g, u, n FROM s ORDER BY g, id;
SELECT id, g, u, n FROM s ORDER BY g, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY g DESC, id;
SELECT id, g, u, n FROM s ORDER BY g DESC, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY u, id DESC;
SELECT id, g, u, n FROM s ORDER BY u, id DESC LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY u DESC, g, id;
SELECT id, g, u, n FROM s ORDER BY u DESC, g, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY c, id;
SELECT id, g, u, n FROM s ORDER BY c, id LIMIT 7;
-- deviation: CONCAT of a utf8mb4_general_ci and a utf8mb4_unicode_ci column: MariaDB derives utf8mb4_bin for the result (upper case first), go-mysql-server the first argument's utf8mb4_general_ci
SELECT id, g, u, n FROM s ORDER BY CONCAT(g, '|', u), id;
SELECT id, g, u, n FROM s ORDER BY CONCAT(g, '|', u), id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY n, g DESC, id;
SELECT id, g, u, n FROM s ORDER BY n, g DESC, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY n DESC, u, id;
SELECT id, g, u, n FROM s ORDER BY n DESC, u, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY LOWER(g) DESC, n, id;
SELECT id, g, u, n FROM s ORDER BY LOWER(g) DESC, n, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY g IS NULL, g, id;
SELECT id, g, u, n FROM s ORDER BY g IS NULL, g, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY -n, id;
SELECT id, g, u, n FROM s ORDER BY -n, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY b, id;
SELECT id, g, u, n FROM s ORDER BY b, id LIMIT 7;
SELECT id, g, u, n FROM s ORDER BY b DESC, id;
SELECT id, g, u, n FROM s ORDER BY b DESC, id LIMIT 7;
SELECT id, g FROM s ORDER BY g, id LIMIT 5, 6;
SELECT SQL_CALC_FOUND_ROWS id FROM s WHERE n > 3 ORDER BY u, id LIMIT 3;
SELECT FOUND_ROWS();
SELECT g, COUNT(*) FROM s GROUP BY g ORDER BY g;
-- deviation: comparison under a PAD SPACE collation: go-mysql-server's u > 'b' holds for 'b  ', MariaDB's does not (trailing spaces are insignificant)
SELECT x.id FROM (SELECT id, g FROM s ORDER BY g DESC, id LIMIT 50) x WHERE x.id IN (SELECT id FROM s WHERE u > 'b') ORDER BY x.id;
-- GROUP BY indexed columns ORDER BY the same columns (read in the index's order, groups returned as they end): NULL keys, HAVING, WHERE, an alias, a two-column prefix, and the forms that keep their sort (DESC, another order, a text column).
CREATE TABLE og (id INT PRIMARY KEY, k INT NULL, d DATE NULL, v INT, t VARCHAR(8), KEY ik (k), KEY ikd (k, d), KEY it (t));
INSERT INTO og SELECT n, IF(n % 11 = 0, NULL, (n * 7) % 13), IF(n % 17 = 0, NULL, DATE('2024-01-01') + INTERVAL (n % 5) DAY), n % 9, ELT(1 + n % 4, 'a', 'B', 'b ', 'c') FROM (SELECT 1 + a.i + 10 * b.i AS n FROM (SELECT 0 i UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) a, (SELECT 0 i UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) b) ns;
SELECT k, COUNT(*), SUM(v), MIN(id), MAX(id) FROM og GROUP BY k ORDER BY k LIMIT 5;
SELECT k, COUNT(*), SUM(v) FROM og GROUP BY k ORDER BY k;
SELECT o.k, COUNT(*) AS n, GROUP_CONCAT(o.id ORDER BY o.id) AS ids FROM og o WHERE o.v > 2 GROUP BY o.k HAVING COUNT(*) > 3 ORDER BY o.k LIMIT 4;
SELECT k, d, COUNT(*), SUM(v) FROM og GROUP BY k, d ORDER BY k, d LIMIT 9;
SELECT k, d, COUNT(*) FROM og GROUP BY d, k ORDER BY k, d LIMIT 6;
SELECT k, COUNT(*) FROM og GROUP BY k ORDER BY k DESC LIMIT 4;
SELECT d, COUNT(*) FROM og GROUP BY d ORDER BY d LIMIT 3;
SELECT k, COUNT(*) AS n FROM og GROUP BY k ORDER BY n DESC, k LIMIT 3;
SELECT t, COUNT(*) FROM og GROUP BY t ORDER BY t;
SELECT k, COUNT(*) FROM og WHERE k IS NOT NULL GROUP BY k ORDER BY k LIMIT 2 OFFSET 3;
-- SELECT DISTINCT ... ORDER BY every selected column: rows equal under the columns' collations (case, trailing spaces) are one, NULL is one.
SELECT DISTINCT g FROM s ORDER BY g;
SELECT DISTINCT u FROM s ORDER BY u DESC;
SELECT DISTINCT g, n FROM s ORDER BY n, g;
-- deviation: a DISTINCT that is not sorted on all its columns by the ORDER BY above it (here the order is an alias's, or an index's) compares text exactly, as go-mysql-server does: variants equal under the collation (case, trailing spaces, accents) stay apart, where MariaDB keeps one
SELECT DISTINCT LOWER(g) AS lg FROM s ORDER BY lg;
SELECT COUNT(*) FROM (SELECT DISTINCT g FROM s ORDER BY g) x;
-- deviation: a DISTINCT that is not sorted on all its columns by the ORDER BY above it (here the order is an alias's, or an index's) compares text exactly, as go-mysql-server does: variants equal under the collation (case, trailing spaces, accents) stay apart, where MariaDB keeps one
SELECT DISTINCT t FROM og ORDER BY t;
SELECT DISTINCT k FROM og WHERE id BETWEEN 5 AND 60 ORDER BY k;
