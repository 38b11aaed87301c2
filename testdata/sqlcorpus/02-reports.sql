-- A small shop schema and reporting queries: joins, GROUP BY/HAVING,
-- ORDER BY with LIMIT, COUNT(DISTINCT), a view, date and string
-- functions, CASE and a window function.
CREATE TABLE customers (
  id INT NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL,
  city VARCHAR(30) NOT NULL,
  joined DATE NOT NULL
);
CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  customer_id INT NOT NULL,
  ordered DATE NOT NULL,
  shipped DATE NULL,
  status VARCHAR(10) NOT NULL,
  KEY icust (customer_id)
);
CREATE TABLE order_items (
  order_id INT NOT NULL,
  line INT NOT NULL,
  product VARCHAR(30) NOT NULL,
  qty INT NOT NULL,
  unit_price DECIMAL(8,2) NOT NULL,
  PRIMARY KEY (order_id, line)
);
INSERT INTO customers VALUES
  (1, 'Alice Martin', 'Paris', '2023-01-15'),
  (2, 'Bob Stone', 'Lyon', '2023-03-02'),
  (3, 'Chloe Dubois', 'Paris', '2023-06-20'),
  (4, 'David Klein', 'Berlin', '2023-09-09'),
  (5, 'Emma Rossi', 'Rome', '2024-01-03'),
  (6, 'Farid Haddad', 'Lyon', '2024-02-28');
INSERT INTO orders VALUES
  (101, 1, '2024-01-10', '2024-01-12', 'shipped'),
  (102, 1, '2024-02-14', '2024-02-20', 'shipped'),
  (103, 2, '2024-02-15', NULL, 'pending'),
  (104, 3, '2024-03-01', '2024-03-03', 'shipped'),
  (105, 3, '2024-03-05', NULL, 'cancelled'),
  (106, 4, '2024-03-07', '2024-03-15', 'shipped'),
  (107, 5, '2024-03-20', '2024-03-21', 'shipped'),
  (108, 1, '2024-04-02', NULL, 'pending'),
  (109, 4, '2024-04-03', '2024-04-05', 'shipped'),
  (110, 2, '2024-04-10', '2024-04-11', 'shipped');
INSERT INTO order_items VALUES
  (101, 1, 'pen', 10, 1.20), (101, 2, 'notebook', 2, 3.50), (101, 3, 'ink', 1, 7.00),
  (102, 1, 'stapler', 1, 12.90), (102, 2, 'pen', 5, 1.20),
  (103, 1, 'paper', 4, 5.25), (103, 2, 'ink', 2, 7.00), (103, 3, 'pen', 20, 1.10),
  (104, 1, 'notebook', 10, 3.20), (104, 2, 'folder', 6, 0.80),
  (105, 1, 'lamp', 1, 24.99),
  (106, 1, 'paper', 10, 5.00), (106, 2, 'stapler', 2, 12.90), (106, 3, 'folder', 12, 0.75),
  (107, 1, 'pen', 3, 1.20), (107, 2, 'ink', 3, 7.00),
  (108, 1, 'lamp', 2, 24.99), (108, 2, 'paper', 1, 5.25),
  (109, 1, 'notebook', 4, 3.50), (109, 2, 'pen', 12, 1.15), (109, 3, 'folder', 3, 0.80),
  (110, 1, 'ink', 1, 7.00), (110, 2, 'stapler', 1, 12.50);
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
