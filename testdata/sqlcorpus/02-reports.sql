-- A small shop schema and reporting queries: joins, GROUP BY/HAVING,
-- ORDER BY with LIMIT, COUNT(DISTINCT), a view, date and string
-- functions, CASE and a window function.
-- include: shop.inc
INSERT INTO order_items (order_id, line, product, qty, unit_price)
  SELECT order_id, line + 10, CONCAT(product, '-refill'), qty * 2, unit_price / 2
  FROM order_items WHERE product IN ('pen', 'ink', 'stapler');
SELECT COUNT(*), SUM(qty) FROM order_items;
SELECT o.id, c.name, o.ordered, o.status
  FROM orders o JOIN customers c ON c.id = o.customer_id
  ORDER BY o.id;
SELECT c.name, COUNT(o.id) AS orders
  FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
  GROUP BY c.id, c.name
  ORDER BY orders DESC, c.name;
SELECT o.id, COUNT(*) AS lines, SUM(i.qty) AS units
  FROM orders o JOIN order_items i ON i.order_id = o.id
  GROUP BY o.id
  HAVING COUNT(*) >= 3
  ORDER BY units DESC, o.id;
SELECT product, SUM(qty) AS units
  FROM order_items
  GROUP BY product
  ORDER BY units DESC, product
  LIMIT 5;
SELECT COUNT(DISTINCT customer_id) AS buyers, COUNT(DISTINCT status) AS statuses FROM orders;
SELECT c.city, COUNT(DISTINCT i.product) AS products
  FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.order_id = o.id
  GROUP BY c.city
  ORDER BY c.city;
CREATE VIEW order_totals AS
  SELECT o.id AS order_id, o.customer_id, o.status, SUM(i.qty) AS units, MAX(i.unit_price) AS top_price
  FROM orders o JOIN order_items i ON i.order_id = o.id
  GROUP BY o.id, o.customer_id, o.status;
SELECT order_id, units, top_price FROM order_totals WHERE status = 'shipped' ORDER BY order_id;
SELECT c.name, t.units
  FROM order_totals t JOIN customers c ON c.id = t.customer_id
  ORDER BY t.units DESC, t.order_id
  LIMIT 3;
SELECT id, DATE_FORMAT(ordered, '%Y-%m') AS month, DATE_FORMAT(ordered, '%d/%m/%Y') AS fr,
    DATEDIFF(shipped, ordered) AS days_to_ship
  FROM orders
  ORDER BY id;
SELECT DATE_FORMAT(ordered, '%Y-%m') AS month, COUNT(*) AS n
  FROM orders
  GROUP BY DATE_FORMAT(ordered, '%Y-%m')
  ORDER BY month;
SELECT CONCAT_WS(', ', UPPER(name), city) AS label, SUBSTRING(name, 1, 5) AS short,
    LENGTH(name) AS len
  FROM customers
  ORDER BY id;
SELECT id, status,
    CASE WHEN shipped IS NULL THEN 'open'
         WHEN DATEDIFF(shipped, ordered) <= 2 THEN 'fast'
         ELSE 'slow' END AS speed
  FROM orders
  ORDER BY id;
SELECT customer_id, id, ordered,
    ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY ordered) AS nth
  FROM orders
  ORDER BY customer_id, nth;
SELECT name FROM customers
  WHERE id NOT IN (SELECT customer_id FROM orders)
  ORDER BY name;
SELECT status, COUNT(*) AS n, MIN(ordered) AS first, MAX(ordered) AS last
  FROM orders
  GROUP BY status
  ORDER BY status;
SELECT SUM(unit_price), AVG(unit_price), MAX(qty * unit_price) FROM order_items;
SELECT 2.50 * 2, 1.10 + 2.20, 10 / 3, 1 / 8, ROUND(2.345, 2);
SELECT CAST(SUM(qty * unit_price) AS DECIMAL(10,2)) AS total FROM order_items;
SELECT product, GROUP_CONCAT(order_id ORDER BY order_id) AS ids FROM order_items GROUP BY product ORDER BY product;
SELECT DATE_ADD(ordered, INTERVAL 1 MONTH) AS next, LAST_DAY(ordered) AS eom, DAYNAME(ordered) AS dn, WEEK(ordered) AS wk
  FROM orders ORDER BY id LIMIT 3;
SELECT id, RANK() OVER (ORDER BY customer_id) AS r, SUM(id) OVER (PARTITION BY customer_id) AS s FROM orders ORDER BY id;
SELECT LPAD(name, 15, '.'), REPLACE(city, 'a', 'A'), LOCATE('o', name), LEFT(name, 3), REVERSE(city) FROM customers ORDER BY id;
SELECT COALESCE(shipped, ordered), NULLIF(status, 'shipped') FROM orders ORDER BY id LIMIT 4;
SELECT COUNT(*) AS n FROM orders WHERE ordered BETWEEN '2024-02-01' AND '2024-03-31';
SHOW TABLES;
INSERT INTO customers VALUES (7, 'Too Long City', 'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH', '2024-01-01');
INSERT INTO customers VALUES (8, 'Bad Date', 'Oslo', '2024-02-30');
SELECT id FROM customers ORDER BY id;
SELECT CONCAT(name, NULL), CONCAT_WS('-', NULL, 'a', NULL, 'b') FROM customers WHERE id = 1;
SELECT 1e20, 0.1 + 0.2, CAST(1.5 AS SIGNED);
SELECT YEAR(ordered), MONTH(ordered), DAYOFWEEK(ordered), QUARTER(ordered) FROM orders WHERE id = 101;
SELECT STR_TO_DATE('05/03/2024', '%d/%m/%Y'), DATE_FORMAT('2024-03-05 14:07:09', '%H:%i:%s %p %W %M %j');
