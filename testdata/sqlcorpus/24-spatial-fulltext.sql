-- Geometry column types, SPATIAL indexes (kept, not built) and
-- MATCH ... AGAINST over kept FULLTEXT indexes (answered by scanning).
CREATE TABLE geo (
  id INT PRIMARY KEY,
  g GEOMETRY NOT NULL,
  p POINT,
  l LINESTRING,
  po POLYGON,
  mp MULTIPOINT,
  ml MULTILINESTRING,
  mpo MULTIPOLYGON,
  gc GEOMETRYCOLLECTION,
  SPATIAL INDEX (g)
);
SHOW CREATE TABLE geo;
SHOW INDEX FROM geo;
DESCRIBE geo;
INSERT INTO geo (id, g, p, l, po) VALUES
  (1, POINT(1, 1), POINT(1, 2), ST_GeomFromText('LINESTRING(0 0,1 1,2 2)'), ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0))')),
  (2, ST_GeomFromText('POINT(5 5)'), POINT(3, 4), NULL, ST_GeomFromText('POLYGON((0 0,2 0,2 2,0 2,0 0))')),
  (3, ST_GeomFromText('POINT(20 20)'), NULL, ST_GeomFromText('LINESTRING(5 5,6 6)'), NULL),
  (4, ST_GeomFromText('LINESTRING(0 0,30 30)'), POINT(-1.5, 2.25), NULL, NULL);
INSERT INTO geo (id, g, mp, ml, mpo, gc) VALUES
  (5, ST_GeomFromText('POLYGON((1 1,4 1,4 4,1 4,1 1))'), ST_GeomFromText('MULTIPOINT(1 1,2 2)'), ST_GeomFromText('MULTILINESTRING((0 0,1 1),(2 2,3 3))'),
   ST_GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,6 5,6 6,5 6,5 5)))'), ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))'));
SELECT id, ST_AsText(g), ST_AsText(p), ST_AsText(l), ST_AsText(po) FROM geo ORDER BY id;
SELECT id, ST_AsText(mp), ST_AsText(ml), ST_AsText(mpo), ST_AsText(gc) FROM geo WHERE id = 5;
SELECT id, HEX(g), HEX(p) FROM geo ORDER BY id;
SELECT id, ST_X(p), ST_Y(p), ST_SRID(p) FROM geo WHERE p IS NOT NULL ORDER BY id;
SELECT id, ST_Distance(p, POINT(0, 0)) FROM geo WHERE p IS NOT NULL ORDER BY id;
SELECT id FROM geo WHERE ST_Contains(ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0))'), g) ORDER BY id;
SELECT id FROM geo WHERE MBRContains(ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0))'), g) ORDER BY id;
SELECT id FROM geo WHERE ST_Within(g, ST_GeomFromText('POLYGON((0 0,6 0,6 6,0 6,0 0))')) ORDER BY id;
SELECT id FROM geo WHERE ST_Intersects(g, ST_GeomFromText('LINESTRING(0 20,20 0)')) ORDER BY id;
SELECT id, ST_Length(l) FROM geo WHERE l IS NOT NULL ORDER BY id;
SELECT id, ST_Area(po) FROM geo WHERE po IS NOT NULL ORDER BY id;
SELECT id, ST_AsText(ST_Centroid(po)) FROM geo WHERE po IS NOT NULL ORDER BY id;
SELECT COUNT(*) FROM geo WHERE ST_Equals(g, POINT(5, 5));
UPDATE geo SET p = POINT(7, 8) WHERE id = 3;
SELECT id, ST_AsText(p) FROM geo WHERE id = 3;
DELETE FROM geo WHERE ST_Equals(g, ST_GeomFromText('POINT(20 20)'));
SELECT COUNT(*) FROM geo;
INSERT INTO geo (id, g) VALUES (10, NULL);
INSERT INTO geo (id, g) VALUES (11, 'not a geometry');
INSERT INTO geo (id, g, p) VALUES (12, POINT(1, 1), ST_GeomFromText('LINESTRING(0 0,1 1)'));
SELECT id, ST_AsText(g) FROM geo WHERE id >= 10;
CREATE TABLE places (id INT PRIMARY KEY, name VARCHAR(20), pos POINT NOT NULL, SPATIAL KEY sp (pos));
ALTER TABLE places ADD COLUMN area POLYGON NOT NULL;
ALTER TABLE places ADD SPATIAL INDEX sa (area);
CREATE SPATIAL INDEX sb ON places (area);
SHOW CREATE TABLE places;
SHOW INDEX FROM places;
CREATE TABLE bad (id INT PRIMARY KEY, p POINT, SPATIAL KEY (p));
CREATE SPATIAL INDEX sn ON geo (p);
INSERT INTO places VALUES (1, 'a', POINT(1, 1), ST_GeomFromText('POLYGON((0 0,2 0,2 2,0 2,0 0))')),
  (2, 'b', POINT(8, 8), ST_GeomFromText('POLYGON((7 7,9 7,9 9,7 9,7 7))'));
SELECT name FROM places WHERE ST_Contains(area, POINT(8.5, 7.5)) ORDER BY id;
DROP INDEX sa ON places;
SHOW CREATE TABLE places;
ALTER TABLE places DROP COLUMN area;
SHOW CREATE TABLE places;
-- Full-text search.
CREATE TABLE docs (
  id INT PRIMARY KEY,
  title VARCHAR(100),
  body TEXT,
  FULLTEXT KEY ftb (body),
  FULLTEXT KEY fttb (title, body)
);
INSERT INTO docs VALUES
  (1, 'Quick fox', 'The quick brown fox jumps over the lazy dog'),
  (2, 'Databases', 'MySQL and MariaDB are relational databases'),
  (3, 'Search', 'Full-text search finds words in text: database, search, index'),
  (4, 'Foxes', 'A fox, another FOX and a third fox-like animal'),
  (5, 'Short', 'an ox is big; go to it'),
  (6, 'Nothing', NULL),
  (7, 'Dogs', 'dogs and cats, not a dog'),
  (8, 'Mixed', 'Brown dog; quick search of the database index');
SELECT id FROM docs WHERE MATCH (body) AGAINST ('fox') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('FOX dog') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('database' IN NATURAL LANGUAGE MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('databases') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('ox') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('the and') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('full-text') ORDER BY id;
SELECT id FROM docs WHERE MATCH (title, body) AGAINST ('quick') ORDER BY id;
SELECT id FROM docs WHERE MATCH (title, body) AGAINST ('foxes') ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('+quick +brown' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('+dog -quick' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('dog fox' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('data*' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('"brown fox"' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('"brown dog"' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('+search -"database index"' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE MATCH (title, body) AGAINST ('+fox* -quick' IN BOOLEAN MODE) ORDER BY id;
SELECT id FROM docs WHERE NOT MATCH (body) AGAINST ('fox') ORDER BY id;
SELECT id, MATCH (body) AGAINST ('fox') > 0 AS hit FROM docs ORDER BY id;
SELECT id FROM docs ORDER BY MATCH (body) AGAINST ('fox') DESC, id LIMIT 2;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('quick database index') ORDER BY MATCH (body) AGAINST ('quick database index') DESC LIMIT 1;
SELECT id, MATCH (body) AGAINST ('fox') FROM docs ORDER BY id;
SELECT id, MATCH (body) AGAINST ('quick database index') AS r1, MATCH (body) AGAINST ('dog dogs') AS r2, MATCH (title, body) AGAINST ('fox') AS r3 FROM docs ORDER BY id;
SELECT id, MATCH (body) AGAINST ('+quick +brown' IN BOOLEAN MODE) AS b1, MATCH (body) AGAINST ('data*' IN BOOLEAN MODE) AS b2, MATCH (body) AGAINST ('"brown dog"' IN BOOLEAN MODE) AS b3, MATCH (body) AGAINST ('search -fox' IN BOOLEAN MODE) AS b4 FROM docs ORDER BY id;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('dog dogs') ORDER BY MATCH (body) AGAINST ('dog dogs') DESC, id;
-- deviation: WITH QUERY EXPANSION is refused (1235); MariaDB runs the search a second time with the words of the best rows
SELECT id FROM docs WHERE MATCH (body) AGAINST ('fox' WITH QUERY EXPANSION) ORDER BY id;
SELECT id FROM docs WHERE MATCH (title) AGAINST ('fox');
SELECT id FROM docs WHERE MATCH (id) AGAINST ('fox');
ALTER TABLE docs ADD FULLTEXT INDEX ftt (title);
SELECT id FROM docs WHERE MATCH (title) AGAINST ('fox foxes') ORDER BY id;
UPDATE docs SET body = 'no animals here' WHERE id = 4;
SELECT id FROM docs WHERE MATCH (body) AGAINST ('fox') ORDER BY id;
-- More DDL: refused SPATIAL indexes, ALTER TABLE to a geometry type,
-- kept indexes beside ordinary ones and foreign keys.
CREATE TABLE bad2 (g1 GEOMETRY NOT NULL, g2 GEOMETRY NOT NULL, SPATIAL INDEX (g1, g2));
CREATE TABLE bad3 (id INT NOT NULL, SPATIAL INDEX (id));
SHOW TABLES;
CREATE TABLE am (id INT PRIMARY KEY, g GEOMETRY, t TEXT);
INSERT INTO am VALUES (1, POINT(1, 1), 'x'), (2, ST_GeomFromText('LINESTRING(0 0,1 1)'), NULL);
ALTER TABLE am MODIFY g POINT;
ALTER TABLE am MODIFY t POINT;
DELETE FROM am WHERE id = 2;
-- deviation: ALTER TABLE reports 0 rows affected; MariaDB reports the rows it copied
ALTER TABLE am MODIFY g POINT NOT NULL;
SHOW CREATE TABLE am;
SELECT id, ST_AsText(g) FROM am;
CREATE TABLE mixed (
  id INT PRIMARY KEY,
  a INT,
  pos POINT NOT NULL,
  body TEXT,
  parent INT,
  KEY ka (a),
  SPATIAL KEY sp (pos),
  FULLTEXT KEY fb (body),
  FOREIGN KEY (parent) REFERENCES docs (id)
);
SHOW CREATE TABLE mixed;
SHOW INDEX FROM mixed;
SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, COLUMN_KEY, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'mixed' ORDER BY ORDINAL_POSITION;
INSERT INTO mixed VALUES (1, 1, POINT(0, 0), 'a fox in the box', 1), (2, 2, POINT(1, 1), 'nothing to see', 2);
INSERT INTO mixed VALUES (3, 3, POINT(2, 2), 'orphan', 99);
SELECT m.id FROM mixed m WHERE MATCH (m.body) AGAINST ('fox') ORDER BY m.id;
SELECT m.id, d.title FROM mixed m JOIN docs d ON d.id = m.parent WHERE MATCH (m.body) AGAINST ('+see' IN BOOLEAN MODE);
SELECT id FROM mixed WHERE MBRWithin(pos, ST_GeomFromText('POLYGON((-1 -1,1.5 -1,1.5 1.5,-1 1.5,-1 -1))')) ORDER BY id;
SELECT id FROM mixed WHERE MBRIntersects(pos, ST_GeomFromText('LINESTRING(1 1,5 5)')) ORDER BY id;
SELECT COUNT(*) FROM mixed WHERE MBRDisjoint(pos, POINT(9, 9));
SELECT MBREquals(ST_GeomFromText('POLYGON((0 0,1 0,1 1,0 1,0 0))'), ST_GeomFromText('POLYGON((0 0,0 1,1 1,1 0,0 0))')) AS e;
SELECT ST_Equals(ST_GeomFromText('LINESTRING(0 0,2 2)'), ST_GeomFromText('LINESTRING(2 2,0 0)')) AS e1, ST_Equals(POINT(1, 1), POINT(1, 2)) AS e2;
SELECT ST_Contains(ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0))'), ST_GeomFromText('POLYGON((1 1,2 1,2 2,1 2,1 1))')) AS inner_poly,
  ST_Contains(ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0))'), ST_GeomFromText('LINESTRING(1 1,5 5)')) AS leaving_line,
  ST_Within(POINT(4, 2), ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0))')) AS on_boundary;
SELECT ST_AsText(ST_Centroid(ST_GeomFromText('POLYGON((0 0,6 0,6 6,0 6,0 0),(1 1,3 1,3 3,1 3,1 1))'))) AS holed,
  ST_AsText(ST_Centroid(ST_GeomFromText('LINESTRING(0 0,4 0,4 2)'))) AS line, ST_AsText(ST_Centroid(ST_GeomFromText('MULTIPOINT(0 0,2 0,4 6)'))) AS pts,
  ST_AsText(ST_Centroid(ST_GeomFromText('MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((10 10,12 10,12 12,10 12,10 10)))'))) AS multi, ST_AsText(ST_Centroid(POINT(1, 2))) AS pt;
SELECT ST_Within(ST_GeomFromText('LINESTRING(0 0,4 0)'), ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0))')) AS edge,
  ST_Within(POINT(0, 0), ST_GeomFromText('LINESTRING(0 0,2 2)')) AS end_point, ST_Within(POINT(5, 5), ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0))')) AS outside,
  ST_Contains(ST_GeomFromText('POLYGON((0 0,4 0,4 4,2 1,0 4,0 0))'), ST_GeomFromText('LINESTRING(1 3,3 3)')) AS concave;
DROP INDEX fb ON mixed;
SELECT id FROM mixed WHERE MATCH (body) AGAINST ('fox');
-- Geometry values over the wire, ordinary keys on geometry, LIKE.
SELECT id, g, p FROM geo WHERE id IN (1, 2) ORDER BY id;
SELECT ST_AsText(ST_GeomFromWKB(ST_AsBinary(g))) FROM geo WHERE id = 5;
CREATE TABLE gk (id INT PRIMARY KEY, g GEOMETRY NOT NULL, KEY kg (g));
CREATE TABLE gk2 (id INT PRIMARY KEY, g GEOMETRY NOT NULL, KEY kg (g(20)));
CREATE TABLE places2 LIKE places;
SHOW CREATE TABLE places2;
CREATE TABLE docs2 LIKE docs;
SHOW CREATE TABLE docs2;
ALTER TABLE places2 CHANGE pos loc POINT NOT NULL;
ALTER TABLE docs2 RENAME COLUMN body TO content;
SHOW CREATE TABLE places2;
SHOW CREATE TABLE docs2;
SELECT id FROM docs2 WHERE MATCH (content) AGAINST ('x');
-- SRID 4326.
SELECT ST_AsText(ST_GeomFromText('POINT(5 6)', 4326)) AS t, ST_X(ST_GeomFromText('POINT(5 6)', 4326)) AS x, HEX(ST_GeomFromText('POINT(5 6)', 4326)) AS h, ST_SRID(ST_GeomFromText('POINT(5 6)', 4326)) AS s;
SELECT HEX(ST_AsBinary(ST_GeomFromText('POINT(5 6)', 4326))) AS b, ST_AsText(ST_GeomFromWKB(ST_AsBinary(POINT(5, 6)), 4326)) AS w, HEX(ST_GeomFromWKB(ST_AsBinary(POINT(5, 6)), 4326)) AS wh;
CREATE TABLE g4326 (id INT PRIMARY KEY, p POINT NOT NULL);
INSERT INTO g4326 VALUES (1, ST_GeomFromText('POINT(5 6)', 4326)), (2, ST_PointFromText('POINT(1 2)', 4326));
INSERT INTO g4326 VALUES (3, ST_GeomFromText('LINESTRING(1 2,3 4)', 4326));
SELECT id, ST_AsText(p), ST_X(p), ST_Y(p), HEX(p) FROM g4326 ORDER BY id;
