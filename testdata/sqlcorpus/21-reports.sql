-- Reports of a film rental business over the rows of 20-schema.inc: the
-- queries its owners and analysts run (joins, subqueries, windows, dates,
-- strings, rollups, checksums). Every ORDER BY is total, so both servers
-- answer in one order.
-- include: 20-schema.inc
-- Views: the customer list over 4 tables, sales per category over 5.
CREATE VIEW customer_list AS
  SELECT cu.id, CONCAT(cu.first_name, ' ', cu.last_name) AS name, a.street, a.postal_code AS zip,
         a.phone, ci.name AS city, co.name AS country, cu.tier, cu.active, cu.store_id
  FROM customer cu
  JOIN address a ON a.id = cu.address_id
  JOIN city ci ON ci.id = a.city_id
  JOIN country co ON co.id = ci.country_id;
CREATE VIEW sales_by_category AS
  SELECT c.name AS category, SUM(p.amount) AS total_sales, COUNT(*) AS rentals
  FROM payment p
  JOIN rental r ON r.id = p.rental_id
  JOIN inventory i ON i.id = r.inventory_id
  JOIN film f ON f.id = i.film_id
  JOIN category c ON c.id = f.category_id
  GROUP BY c.name;
-- 1. The size of every table.
SELECT 'country' AS tbl, COUNT(*) AS n FROM country
  UNION ALL SELECT 'city', COUNT(*) FROM city
  UNION ALL SELECT 'address', COUNT(*) FROM address
  UNION ALL SELECT 'store', COUNT(*) FROM store
  UNION ALL SELECT 'staff', COUNT(*) FROM staff
  UNION ALL SELECT 'customer', COUNT(*) FROM customer
  UNION ALL SELECT 'category', COUNT(*) FROM category
  UNION ALL SELECT 'film', COUNT(*) FROM film
  UNION ALL SELECT 'inventory', COUNT(*) FROM inventory
  UNION ALL SELECT 'rental', COUNT(*) FROM rental
  UNION ALL SELECT 'payment', COUNT(*) FROM payment
  ORDER BY n DESC, tbl;
-- 2. The customer list view, filtered.
SELECT id, name, street, zip, city, country, tier FROM customer_list
  WHERE country = 'Norway' AND active = 1 ORDER BY name, id LIMIT 8;
-- 3. Customers per country and tier, from the view.
SELECT country, tier, COUNT(*) AS customers FROM customer_list
  GROUP BY country, tier ORDER BY country, tier;
-- 4. The ten best customers by money paid (inner joins over 4 tables).
SELECT cu.id, cu.first_name, cu.last_name, ci.name AS city, SUM(p.amount) AS paid, COUNT(*) AS payments
  FROM payment p
  JOIN customer cu ON cu.id = p.customer_id
  JOIN address a ON a.id = cu.address_id
  JOIN city ci ON ci.id = a.city_id
  GROUP BY cu.id, cu.first_name, cu.last_name, ci.name
  ORDER BY paid DESC, cu.id
  LIMIT 10;
-- 5. Customers who never rented (LEFT JOIN ... IS NULL).
SELECT cu.id, cu.first_name, cu.last_name, cu.email
  FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id
  WHERE r.id IS NULL ORDER BY cu.id;
-- 6. Films no store stocks (NOT EXISTS).
SELECT f.id, f.title FROM film f
  WHERE NOT EXISTS (SELECT 1 FROM inventory i WHERE i.film_id = f.id)
  ORDER BY f.id;
-- 7. Customers without an address on file, and their store.
SELECT cu.id, cu.last_name, s.name AS store FROM customer cu
  JOIN store s ON s.id = cu.store_id
  LEFT JOIN address a ON a.id = cu.address_id
  WHERE a.id IS NULL ORDER BY cu.id;
-- 8. Gold customers who paid with a voucher in March 2024 (IN subquery).
SELECT id, first_name, last_name FROM customer
  WHERE tier = 'gold' AND id IN (SELECT customer_id FROM payment WHERE method = 'voucher' AND paid_at >= '2024-03-01' AND paid_at < '2024-04-01')
  ORDER BY id;
-- 9. Revenue per store and staff member.
SELECT st.name AS store, CONCAT(sf.first_name, ' ', sf.last_name) AS staff, sf.role,
       COUNT(*) AS payments, SUM(p.amount) AS revenue, AVG(p.amount) AS average
  FROM payment p JOIN staff sf ON sf.id = p.staff_id JOIN store st ON st.id = sf.store_id
  GROUP BY st.name, sf.id, sf.first_name, sf.last_name, sf.role
  ORDER BY st.name, revenue DESC, sf.id;
-- 10. Categories with more than 480 rentals (GROUP BY / HAVING).
SELECT c.name, COUNT(*) AS rentals, COUNT(DISTINCT r.customer_id) AS customers
  FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id JOIN category c ON c.id = f.category_id
  GROUP BY c.name HAVING COUNT(*) > 480 ORDER BY rentals DESC, c.name;
-- 11. Sales by category (the 5-table view).
SELECT category, total_sales, rentals FROM sales_by_category ORDER BY total_sales DESC, category;
-- 12. Each category's share of sales, in percent (DECIMAL division).
SELECT category, total_sales, ROUND(total_sales * 100 / (SELECT SUM(total_sales) FROM sales_by_category), 2) AS pct
  FROM sales_by_category ORDER BY pct DESC, category;
-- 13. Films of each category by rental count, top 3 (ROW_NUMBER).
SELECT category, title, rentals, rn FROM (
  SELECT c.name AS category, f.title, COUNT(*) AS rentals,
         ROW_NUMBER() OVER (PARTITION BY c.id ORDER BY COUNT(*) DESC, f.id) AS rn
  FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id JOIN category c ON c.id = f.category_id
  GROUP BY c.id, c.name, f.id, f.title) t
  WHERE rn <= 3 ORDER BY category, rn;
-- 14. Staff ranked by revenue (RANK and DENSE_RANK).
SELECT sf.id, sf.last_name, SUM(p.amount) AS revenue,
       RANK() OVER (ORDER BY SUM(p.amount) DESC) AS rnk,
       DENSE_RANK() OVER (PARTITION BY sf.store_id ORDER BY SUM(p.amount) DESC) AS rank_in_store
  FROM payment p JOIN staff sf ON sf.id = p.staff_id
  GROUP BY sf.id, sf.last_name, sf.store_id ORDER BY rnk, sf.id;
-- 15. Monthly revenue with a running total (window SUM over DECIMAL).
SELECT ym, revenue, SUM(revenue) OVER (ORDER BY ym) AS running FROM (
  SELECT DATE_FORMAT(paid_at, '%Y-%m') AS ym, SUM(amount) AS revenue FROM payment GROUP BY DATE_FORMAT(paid_at, '%Y-%m')) m
  ORDER BY ym;
-- 16. Month over month (LAG and LEAD).
SELECT ym, rentals, LAG(rentals) OVER (ORDER BY ym) AS prev, rentals - LAG(rentals) OVER (ORDER BY ym) AS delta,
       LEAD(rentals) OVER (ORDER BY ym) AS next
  FROM (SELECT DATE_FORMAT(rented_at, '%Y-%m') AS ym, COUNT(*) AS rentals FROM rental GROUP BY DATE_FORMAT(rented_at, '%Y-%m')) m
  ORDER BY ym;
-- 17. A customer's payments against their average and the overall average (AVG over DECIMAL, windowed).
SELECT id, amount, AVG(amount) OVER (PARTITION BY customer_id) AS cust_avg,
       SUM(amount) OVER (PARTITION BY customer_id ORDER BY paid_at, id) AS cust_running,
       AVG(amount) OVER () AS overall_avg
  FROM payment WHERE customer_id = 32 ORDER BY paid_at, id;
-- 18. Rentals per weekday (DATE_FORMAT, DAYOFWEEK).
SELECT DAYOFWEEK(rented_at) AS dow, DATE_FORMAT(rented_at, '%W') AS day, COUNT(*) AS rentals
  FROM rental GROUP BY DAYOFWEEK(rented_at), DATE_FORMAT(rented_at, '%W') ORDER BY dow;
-- 19. Rental length by rating (DATEDIFF; NULL rating is its own group).
SELECT f.rating, COUNT(*) AS rentals, AVG(DATEDIFF(r.returned_at, r.rented_at)) AS avg_days,
       MAX(DATEDIFF(r.returned_at, r.rented_at)) AS max_days
  FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id
  WHERE r.returned_at IS NOT NULL GROUP BY f.rating ORDER BY f.rating;
-- 20. Overdue rentals: due date is rented_at + rental_duration days (DATE_ADD on DATETIME).
SELECT r.id, r.rented_at, DATE_ADD(r.rented_at, INTERVAL f.rental_duration DAY) AS due,
       r.returned_at, TIMESTAMPDIFF(HOUR, DATE_ADD(r.rented_at, INTERVAL f.rental_duration DAY), r.returned_at) AS hours_late
  FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id
  WHERE r.returned_at > DATE_ADD(r.rented_at, INTERVAL f.rental_duration DAY)
  ORDER BY hours_late DESC, r.id LIMIT 10;
-- 21. Rentals still out at the end of the data, with days out.
SELECT r.id, r.customer_id, DATE(r.rented_at) AS day, DATEDIFF('2025-01-01', r.rented_at) AS days_out
  FROM rental r WHERE r.returned_at IS NULL ORDER BY days_out DESC, r.id LIMIT 10;
-- 22. Payments per year and month (YEAR/MONTH grouping).
SELECT YEAR(paid_at) AS y, MONTH(paid_at) AS m, COUNT(*) AS payments, SUM(amount) AS total, MIN(amount) AS smallest, MAX(amount) AS largest
  FROM payment GROUP BY YEAR(paid_at), MONTH(paid_at) ORDER BY y, m;
-- 23. Customer labels (CONCAT/CONCAT_WS over dates and ENUMs).
SELECT id, CONCAT(first_name, ' ', last_name, ' (', tier, ')') AS label,
       CONCAT_WS(' / ', email, tier, birth_date, DATE(created)) AS details
  FROM customer WHERE id <= 12 ORDER BY id;
-- 24. Postal areas: the first two digits of the code (SUBSTRING, LPAD).
SELECT SUBSTRING(postal_code, 1, 2) AS area, COUNT(*) AS addresses, LPAD(MIN(id), 6, '0') AS first_id
  FROM address WHERE postal_code IS NOT NULL GROUP BY SUBSTRING(postal_code, 1, 2) ORDER BY addresses DESC, area LIMIT 10;
-- 25. Customer codes and contact (LPAD, UPPER, SUBSTRING, IFNULL).
SELECT CONCAT('C', LPAD(cu.id, 5, '0')) AS code, UPPER(SUBSTRING(cu.last_name, 1, 3)) AS tag,
       IFNULL(a.phone, 'no phone') AS phone, COALESCE(a.postal_code, '-----') AS zip
  FROM customer cu LEFT JOIN address a ON a.id = cu.address_id WHERE cu.id BETWEEN 40 AND 50 ORDER BY cu.id;
-- 26. Film titles per category (GROUP_CONCAT).
SELECT c.name, COUNT(*) AS films, GROUP_CONCAT(f.title ORDER BY f.title SEPARATOR ', ') AS titles
  FROM category c JOIN film f ON f.category_id = c.id WHERE f.length > 180
  GROUP BY c.name ORDER BY c.name;
-- 27. Payment methods per store (CASE aggregates).
SELECT st.name,
       SUM(CASE WHEN p.method = 'cash' THEN p.amount ELSE 0 END) AS cash,
       SUM(CASE WHEN p.method = 'card' THEN p.amount ELSE 0 END) AS card,
       SUM(CASE WHEN p.method = 'voucher' THEN p.amount ELSE 0 END) AS voucher,
       COUNT(CASE WHEN p.amount > 5 THEN 1 END) AS over_5
  FROM payment p JOIN staff sf ON sf.id = p.staff_id JOIN store st ON st.id = sf.store_id
  GROUP BY st.name ORDER BY st.name;
-- 28. Revenue per store and method WITH ROLLUP.
-- deviation: MariaDB sorts this rollup over a join by the ENUM's label (card, cash, voucher), where its plain GROUP BY and a rollup of one table sort by the ENUM's index, as HandlerDB does (cash, card, voucher)
SELECT sf.store_id, p.method, SUM(p.amount) AS total, COUNT(*) AS n
  FROM payment p JOIN staff sf ON sf.id = p.staff_id
  GROUP BY sf.store_id, p.method WITH ROLLUP;
-- 29. People in one city: staff and customers (UNION with ORDER BY).
SELECT 'customer' AS kind, cu.first_name, cu.last_name FROM customer cu JOIN address a ON a.id = cu.address_id WHERE a.city_id = 7
UNION
SELECT 'staff', sf.first_name, sf.last_name FROM staff sf WHERE sf.store_id = 2
ORDER BY last_name, first_name, kind;
-- 30. An activity feed of one customer (UNION ALL with ORDER BY).
SELECT rented_at AS at, 'rented' AS what, inventory_id AS ref FROM rental WHERE customer_id = 64
UNION ALL
SELECT returned_at, 'returned', inventory_id FROM rental WHERE customer_id = 64 AND returned_at IS NOT NULL
UNION ALL
SELECT paid_at, CONCAT('paid ', amount), id FROM payment WHERE customer_id = 64
ORDER BY at, what, ref;
-- 31. The last rental of each store, and each listed customer's last rental (correlated subqueries).
SELECT st.name,
       (SELECT MAX(r.rented_at) FROM rental r JOIN inventory i ON i.id = r.inventory_id WHERE i.store_id = st.id) AS last_rental
  FROM store st ORDER BY st.name;
SELECT r.customer_id, r.id, r.rented_at FROM rental r
  WHERE r.customer_id IN (32, 63, 94, 125)
    AND r.rented_at = (SELECT MAX(r2.rented_at) FROM rental r2 WHERE r2.customer_id = r.customer_id)
  ORDER BY r.customer_id, r.id;
-- 32. Categories with their film count and dearest film (correlated scalar subqueries).
SELECT c.name,
       (SELECT COUNT(*) FROM film f WHERE f.category_id = c.id) AS films,
       (SELECT MAX(f.replacement_cost) FROM film f WHERE f.category_id = c.id) AS dearest,
       (SELECT AVG(f.rental_rate) FROM film f WHERE f.category_id = c.id) AS avg_rate
  FROM category c ORDER BY c.name;
-- 33. Customers whose rentals span 4 stores (COUNT DISTINCT in HAVING).
SELECT r.customer_id, COUNT(DISTINCT i.store_id) AS stores, COUNT(*) AS rentals
  FROM rental r JOIN inventory i ON i.id = r.inventory_id
  GROUP BY r.customer_id HAVING COUNT(DISTINCT i.store_id) = 4 AND COUNT(*) >= 16
  ORDER BY rentals DESC, r.customer_id LIMIT 10;
-- 34. Customers by number of rentals, bucketed (a derived table).
SELECT CASE WHEN n < 10 THEN 'under 10' WHEN n < 14 THEN '10-13' ELSE '14 and more' END AS bucket,
       COUNT(*) AS customers, MIN(n) AS fewest, MAX(n) AS most
  FROM (SELECT customer_id, COUNT(*) AS n FROM rental GROUP BY customer_id) t
  GROUP BY CASE WHEN n < 10 THEN 'under 10' WHEN n < 14 THEN '10-13' ELSE '14 and more' END
  ORDER BY fewest;
-- 35. Price bands of the catalogue (MIN/MAX/AVG/SUM over DECIMAL, TRUNCATE, and a tax of 10%).
SELECT rental_rate, COUNT(*) AS films, MIN(replacement_cost) AS min_cost, MAX(replacement_cost) AS max_cost,
       AVG(replacement_cost) AS avg_cost, TRUNCATE(AVG(replacement_cost), 1) AS avg_cut,
       SUM(replacement_cost) AS stock_value, SUM(replacement_cost) * 1.1 AS with_tax
  FROM film GROUP BY rental_rate ORDER BY rental_rate;
-- 36. Average rentals per customer, and per active customer (AVG of INT).
SELECT AVG(n) AS per_customer, AVG(CASE WHEN active = 1 THEN n END) AS per_active, SUM(n) AS rentals
  FROM (SELECT cu.id, cu.active, COUNT(r.id) AS n FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id GROUP BY cu.id, cu.active) t;
-- 37. Tiers in ENUM order with their revenue.
SELECT cu.tier, COUNT(DISTINCT cu.id) AS customers, SUM(p.amount) AS revenue, AVG(p.amount) AS avg_payment
  FROM customer cu JOIN payment p ON p.customer_id = cu.id GROUP BY cu.tier ORDER BY cu.tier;
-- 38. A CTE: the busiest day of each month.
WITH daily AS (
  SELECT DATE(rented_at) AS day, COUNT(*) AS n FROM rental GROUP BY DATE(rented_at)
), ranked AS (
  SELECT day, n, ROW_NUMBER() OVER (PARTITION BY YEAR(day), MONTH(day) ORDER BY n DESC, day) AS rn FROM daily
)
SELECT day, n FROM ranked WHERE rn = 1 ORDER BY day;
-- 39. A recursive CTE calendar: rentals in each week of the first quarter.
WITH RECURSIVE weeks (wk, starts) AS (
  SELECT 1, DATE '2024-01-01'
  UNION ALL
  SELECT wk + 1, starts + INTERVAL 7 DAY FROM weeks WHERE wk < 13
)
SELECT w.wk, w.starts, COUNT(r.id) AS rentals
  FROM weeks w LEFT JOIN rental r ON r.rented_at >= w.starts AND r.rented_at < w.starts + INTERVAL 7 DAY
  GROUP BY w.wk, w.starts ORDER BY w.wk;
-- 40. User variables: a running count and a share of the total.
SET @total := (SELECT SUM(amount) FROM payment);
SELECT @total;
SET @n := 0;
SELECT @n := @n + 1 AS pos, name, total_sales, ROUND(total_sales / @total * 100, 1) AS pct
  FROM (SELECT category AS name, total_sales FROM sales_by_category ORDER BY total_sales DESC, category LIMIT 5) t;
SELECT @n;
-- 41. Films released per decade and rating (integer division, ROLLUP).
SELECT release_year DIV 10 * 10 AS decade, COUNT(*) AS films, SUM(length) AS minutes
  FROM film GROUP BY release_year DIV 10 * 10 WITH ROLLUP;
-- 42. Staff without an email, inactive staff, and their store's customer count.
SELECT sf.id, sf.first_name, sf.email, sf.active, (SELECT COUNT(*) FROM customer cu WHERE cu.store_id = sf.store_id) AS store_customers
  FROM staff sf WHERE sf.email IS NULL OR sf.active = 0 ORDER BY sf.id;
-- 44. Revenue per store with a total line (UNION ALL of grouped and overall SUMs).
SELECT st.name AS store, SUM(p.amount) AS revenue, COUNT(*) AS payments
  FROM payment p JOIN staff sf ON sf.id = p.staff_id JOIN store st ON st.id = sf.store_id GROUP BY st.name
UNION ALL
SELECT 'Total', SUM(amount), COUNT(*) FROM payment
ORDER BY store;
-- 45. Key figures in one column (a UNION of SUM, AVG and COUNT).
SELECT 'revenue' AS figure, SUM(amount) AS value FROM payment
UNION ALL SELECT 'average payment', AVG(amount) FROM payment
UNION ALL SELECT 'rentals per customer', AVG(n) FROM (SELECT COUNT(*) AS n FROM rental GROUP BY customer_id) t
UNION ALL SELECT 'films', COUNT(*) FROM film
ORDER BY figure;
-- 43. Checksums of the tables, as a replication check would compute them.
SELECT SUM(CRC32(CONCAT_WS('#', id, city_id, street, postal_code, phone))) AS address_sum FROM address;
SELECT SUM(CRC32(CONCAT_WS('#', id, title, category_id, release_year, length, rental_duration, rental_rate, replacement_cost))) AS film_sum FROM film;
SELECT SUM(CRC32(CONCAT_WS('#', id, inventory_id, customer_id, staff_id, rented_at, returned_at))) AS rental_sum FROM rental;
SELECT SUM(CRC32(CONCAT_WS('#', id, film_id, store_id, acquired))) AS inventory_sum FROM inventory;
SELECT SUM(CRC32(CONCAT_WS('#', id, store_id, first_name, last_name, email, address_id, tier, birth_date, created, last_update, active))) AS customer_sum FROM customer;
SELECT SUM(CRC32(CONCAT_WS('#', id, rental_id, customer_id, staff_id, amount, paid_at, method))) AS payment_sum FROM payment;
