-- SHOW CREATE VIEW and information_schema.VIEWS print a view's SELECT
-- as MariaDB does: every column through its table, every item named,
-- MariaDB's spelling of functions and operators (count(0), substr,
-- octet_length, d + interval 1 day, NOT pushed down), joins nested in
-- parentheses with on(...), RIGHT JOIN as LEFT JOIN, USING and NATURAL
-- as their equalities (they printed the SELECT as written). The view
-- `totals` (a GROUP BY with a date aggregate, HAVING COUNT(*), ORDER BY
-- and LIMIT) read COUNT(*)'s column from the grouped column's place when
-- used as a view or derived table.
CREATE TABLE country (country_id INT PRIMARY KEY, country VARCHAR(50));
CREATE TABLE city (city_id INT PRIMARY KEY, city VARCHAR(50), country_id INT);
CREATE TABLE address (address_id INT PRIMARY KEY, address VARCHAR(50), postal_code VARCHAR(10), phone VARCHAR(20), city_id INT);
CREATE TABLE customer (customer_id INT PRIMARY KEY, store_id INT, first_name VARCHAR(45), last_name VARCHAR(45), address_id INT, active TINYINT(1), create_date DATETIME);
CREATE TABLE payment (payment_id INT PRIMARY KEY, customer_id INT, amount DECIMAL(5,2), payment_date DATETIME);
INSERT INTO country VALUES (1, 'Chad'), (2, 'Peru');
INSERT INTO city VALUES (1, 'Lima', 2), (2, 'Abeche', 1);
INSERT INTO address VALUES (1, '1 Main St', '100', '555', 1), (2, '2 Side St', NULL, '556', 2);
INSERT INTO customer VALUES (1, 1, 'ANN', 'LEE', 1, 1, '2006-02-14 22:04:36'), (2, 2, 'BO', 'KIM', 2, 0, '2006-02-14 22:04:37');
INSERT INTO payment VALUES (1, 1, 2.99, '2005-05-25 11:30:37'), (2, 1, 0.99, '2005-05-28 10:35:23'), (3, 2, 5.99, '2005-06-15 00:54:12');
CREATE DEFINER=`root`@`localhost` VIEW customer_list AS
SELECT cu.customer_id AS ID, CONCAT(cu.first_name, ' ', cu.last_name) AS name, a.address AS address, a.postal_code AS `zip code`,
	a.phone AS phone, city.city AS city, country.country AS country, IF(cu.active, 'active', '') AS notes, cu.store_id AS SID
FROM customer AS cu JOIN address AS a ON cu.address_id = a.address_id JOIN city ON a.city_id = city.city_id
	JOIN country ON city.country_id = country.country_id;
SHOW CREATE VIEW customer_list;
SELECT * FROM customer_list ORDER BY ID;
CREATE DEFINER=`root`@`localhost` VIEW totals AS
SELECT c.customer_id, COUNT(*) n, SUM(p.amount) AS total, MAX(p.payment_date) last, AVG(amount)
FROM customer c LEFT JOIN payment p ON p.customer_id = c.customer_id
WHERE c.active = 1 OR c.store_id IN (1, 2) GROUP BY c.customer_id HAVING COUNT(*) > 0 AND total > 1 ORDER BY total DESC LIMIT 10;
SHOW CREATE VIEW totals;
SELECT * FROM totals;
CREATE DEFINER=`root`@`localhost` VIEW plain AS SELECT * FROM country WHERE country_id > 1 AND NOT (country LIKE 'x%' OR country_id = 7);
SHOW CREATE VIEW plain;
CREATE DEFINER=`root`@`localhost` VIEW named (k, v) AS SELECT country_id, UPPER(country) FROM country;
SHOW CREATE VIEW named;
SELECT * FROM named ORDER BY k;
CREATE DEFINER=`root`@`localhost` VIEW on_view AS SELECT k, v, LENGTH(v) AS len FROM named WHERE k BETWEEN 1 AND 5;
SHOW CREATE VIEW on_view;
CREATE DEFINER=`root`@`localhost` VIEW derived AS
SELECT x.customer_id, x.n FROM (SELECT customer_id, COUNT(*) AS n FROM payment GROUP BY customer_id) x WHERE x.n >= 1;
SHOW CREATE VIEW derived;
SELECT * FROM derived ORDER BY customer_id;
CREATE DEFINER=`root`@`localhost` VIEW correlated AS
SELECT c.first_name, (SELECT SUM(amount) FROM payment p WHERE p.customer_id = c.customer_id) AS spent,
  EXISTS (SELECT 1 FROM payment p WHERE p.customer_id = c.customer_id AND p.amount > 5) AS big
FROM customer c WHERE c.customer_id IN (SELECT customer_id FROM payment GROUP BY customer_id HAVING SUM(amount) > 1);
SHOW CREATE VIEW correlated;
SELECT * FROM correlated ORDER BY first_name;
CREATE DEFINER=`root`@`localhost` VIEW joins AS
SELECT a.address, ci.city FROM address a RIGHT JOIN city ci ON ci.city_id = a.city_id JOIN country USING (country_id), customer;
SHOW CREATE VIEW joins;
CREATE DEFINER=`root`@`localhost` VIEW natural_join AS SELECT city, country FROM city NATURAL JOIN country;
SHOW CREATE VIEW natural_join;
SELECT * FROM natural_join ORDER BY city;
CREATE DEFINER=`root`@`localhost` VIEW exprs AS
SELECT customer_id + 1, customer_id - (1 - 2), (customer_id + 1) * 2, customer_id DIV 2, customer_id % 3, -customer_id, !active, NOT active,
  active IS NULL, active IS NOT NULL, active <=> NULL, first_name != 'A', first_name NOT IN ('A'), first_name NOT IN ('A', 'B'),
  first_name NOT LIKE 'A%', first_name REGEXP '^A', customer_id NOT BETWEEN 2 AND 3, 'it''s', "dq", 'a\\b', 1.50, -1, 1e3, TRUE, FALSE, NULL,
  CASE WHEN active = 1 THEN 'y' WHEN active = 0 THEN 'n' ELSE '?' END AS c1, CASE store_id WHEN 1 THEN 'one' END AS c2
FROM customer;
SHOW CREATE VIEW exprs;
SELECT * FROM exprs ORDER BY 1;
CREATE DEFINER=`root`@`localhost` VIEW funcs AS
SELECT NOW(), CURDATE(), CURRENT_DATE, CURTIME(), CURRENT_TIMESTAMP, SUBSTRING(first_name, 1, 2), SUBSTR(last_name, 2), MID(first_name, 1, 1),
  LENGTH(first_name), CHAR_LENGTH(first_name), UPPER(first_name), LOWER(last_name), TRIM(first_name), LEFT(first_name, 1), IFNULL(active, 0),
  COALESCE(store_id, 0), NULLIF(store_id, 1), DATE_FORMAT(create_date, '%Y'), YEAR(create_date), DAY(create_date), DATE(create_date),
  DATE_ADD(create_date, INTERVAL 1 DAY), DATE_SUB(create_date, INTERVAL 2 MONTH), create_date + INTERVAL store_id DAY,
  DATEDIFF(create_date, '2006-01-01'), ROUND(store_id / 3, 2), CAST(store_id AS CHAR(3)), CAST(store_id AS SIGNED), CAST(store_id AS DECIMAL(5,2)),
  CONVERT(first_name USING latin1), CONCAT_WS('-', first_name, last_name)
FROM customer;
SHOW CREATE VIEW funcs;
CREATE DEFINER=`root`@`localhost` VIEW aggs AS
SELECT store_id, COUNT(DISTINCT active), GROUP_CONCAT(first_name), GROUP_CONCAT(DISTINCT last_name ORDER BY last_name DESC SEPARATOR '; '),
  MAX(DISTINCT customer_id), MIN(customer_id), SUM(DISTINCT store_id), STD(customer_id), VARIANCE(customer_id), BIT_OR(active)
FROM customer GROUP BY store_id ORDER BY store_id;
SHOW CREATE VIEW aggs;
SELECT store_id, `COUNT(DISTINCT active)`, `GROUP_CONCAT(first_name)` FROM aggs;
CREATE DEFINER=`root`@`localhost` VIEW unioned AS SELECT city AS place FROM city UNION SELECT country FROM country UNION ALL SELECT 'x';
SHOW CREATE VIEW unioned;
SELECT * FROM unioned ORDER BY place;
CREATE DEFINER=`root`@`localhost` VIEW distinct_order AS SELECT DISTINCT store_id AS s, active FROM customer ORDER BY s, 2 DESC;
SHOW CREATE VIEW distinct_order;
CREATE DEFINER=`root`@`localhost` VIEW dual_view AS SELECT 1, 'a' AS b, 2 + 3;
SHOW CREATE VIEW dual_view;
CREATE DEFINER=`root`@`localhost` SQL SECURITY INVOKER VIEW checked AS SELECT country_id, country FROM country WHERE country_id < 10 WITH CHECK OPTION;
SHOW CREATE VIEW checked;
SHOW CREATE TABLE checked;
SELECT TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION, IS_UPDATABLE, SECURITY_TYPE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
-- A bare column as a condition (WHERE, HAVING, ON, an operand of AND,
-- OR, XOR) prints as c <> 0; operators keep their meaning with the
-- fewest parentheses.
CREATE DEFINER=`root`@`localhost` VIEW conds AS
SELECT c.customer_id, IF(c.active AND c.store_id, 1, 2) AS both_set, CASE WHEN c.active THEN 'a' END AS w
FROM customer c JOIN payment p ON c.active WHERE c.active AND c.store_id + 1 AND ISNULL(p.payment_date) AND (c.customer_id > 1) XOR p.amount AND NOT c.active
GROUP BY c.customer_id, c.active, c.store_id HAVING c.customer_id;
SHOW CREATE VIEW conds;
SELECT * FROM conds ORDER BY customer_id;
CREATE DEFINER=`root`@`localhost` VIEW arith AS
SELECT customer_id - (store_id - 1), (customer_id - store_id) - 1, customer_id * (store_id + 1), -(customer_id + 1), customer_id DIV (store_id * 2),
  DATEDIFF(create_date, '2000-01-01') * 2, DATE_ADD(create_date, INTERVAL 1 DAY) < NOW()
FROM customer WHERE NOT (customer_id = 1 AND (store_id = 2 OR active = 3)) AND (customer_id OR store_id);
SHOW CREATE VIEW arith;
SELECT * FROM arith ORDER BY 1;
-- An empty item name is Name_exp_N; a string right after SELECT is read
-- as after a space (SELECT'' ended the connection).
SELECT'', 'b';
SELECT'a';
CREATE DEFINER=`root`@`localhost` VIEW empty_name AS SELECT'', 'b';
SHOW CREATE VIEW empty_name;
