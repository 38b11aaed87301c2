-- The forms of the classic Sakila reports that ran slowest here (issue
-- #26), over the rows of 20-schema.inc: an IN subquery with GROUP BY and
-- HAVING, a view with a correlated GROUP_CONCAT per row, a stored function
-- called per row, GROUP_CONCAT with ORDER BY, CALL of a small procedure,
-- and a join condition with date + INTERVAL column DAY. Every ORDER BY is
-- total, so both servers answer in one order.
-- include: 20-schema.inc
-- Sakila's inventory_in_stock: is a copy on the shelf?
CREATE FUNCTION inventory_in_stock(p_inventory_id INT) RETURNS TINYINT READS SQL DATA BEGIN DECLARE v_rentals INT; DECLARE v_out INT; SELECT COUNT(*) INTO v_rentals FROM rental WHERE inventory_id = p_inventory_id; IF v_rentals = 0 THEN RETURN 1; END IF; SELECT COUNT(r.id) INTO v_out FROM inventory i LEFT JOIN rental r ON r.inventory_id = i.id WHERE i.id = p_inventory_id AND r.returned_at IS NULL; IF v_out > 0 THEN RETURN 0; ELSE RETURN 1; END IF; END;
-- Sakila's film_in_stock: the copies of a film on a store's shelf, and their number.
CREATE PROCEDURE film_in_stock(IN p_film_id INT, IN p_store_id INT, OUT p_film_count INT) READS SQL DATA BEGIN SELECT id FROM inventory WHERE film_id = p_film_id AND store_id = p_store_id AND inventory_in_stock(id) ORDER BY id; SELECT COUNT(*) INTO p_film_count FROM inventory WHERE film_id = p_film_id AND store_id = p_store_id AND inventory_in_stock(id); END;
-- Sakila's actor_info: a correlated GROUP_CONCAT per row of the view.
CREATE VIEW customer_films AS
  SELECT cu.id, cu.first_name, cu.last_name,
         (SELECT GROUP_CONCAT(DISTINCT f.title ORDER BY f.title SEPARATOR ', ')
            FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id
            WHERE r.customer_id = cu.id) AS films
  FROM customer cu;
-- 1. Customers who paid more than a sum: IN (SELECT ... GROUP BY ... HAVING).
SELECT id, first_name, last_name FROM customer
  WHERE id IN (SELECT customer_id FROM payment GROUP BY customer_id HAVING SUM(amount) > 75)
  ORDER BY id;
-- 2. The same with NOT IN and a count.
SELECT COUNT(*) AS n FROM customer
  WHERE id NOT IN (SELECT customer_id FROM payment GROUP BY customer_id HAVING COUNT(*) >= 12);
-- 3. The view with a correlated GROUP_CONCAT per row.
SELECT id, first_name, last_name, LEFT(films, 60) AS films, LENGTH(films) AS len
  FROM customer_films WHERE id % 25 = 1 ORDER BY id;
-- 4. A checksum over the whole view.
SELECT COUNT(*) AS n, SUM(LENGTH(films)) AS total, SUM(CRC32(films)) AS crc FROM customer_films;
-- 5. A stored function called per row.
SELECT COUNT(*) AS n, SUM(inventory_in_stock(id)) AS in_stock FROM inventory;
-- 6. The same as a filter.
SELECT id, film_id, store_id FROM inventory WHERE NOT inventory_in_stock(id) ORDER BY id LIMIT 12;
-- 7. GROUP_CONCAT with ORDER BY, one group per film category.
SELECT c.name, COUNT(*) AS films, LEFT(GROUP_CONCAT(f.title ORDER BY f.title DESC SEPARATOR '|'), 80) AS titles,
       CRC32(GROUP_CONCAT(f.title ORDER BY f.length, f.id)) AS crc
  FROM category c JOIN film f ON f.category_id = c.id GROUP BY c.name ORDER BY c.name;
-- 8. GROUP_CONCAT with ORDER BY per customer.
SELECT r.customer_id, COUNT(*) AS n, CRC32(GROUP_CONCAT(r.id ORDER BY r.rented_at DESC, r.id)) AS crc
  FROM rental r GROUP BY r.customer_id ORDER BY r.customer_id LIMIT 20;
-- 9. CALL of a small procedure with a result set and an OUT parameter.
-- deviation: the affected-rows count of CALL's final OK packet: MariaDB's is 5 and 9 here (a count carried over from the routines' inner statements), HandlerDB's 0.
CALL film_in_stock(8, 1, @count);
SELECT @count;
-- deviation: the affected-rows count of CALL's final OK packet: MariaDB's is 5 and 9 here (a count carried over from the routines' inner statements), HandlerDB's 0.
CALL film_in_stock(100, 2, @count);
SELECT @count;
-- 10. Overdue rentals: a join condition with date + INTERVAL column DAY.
SELECT COUNT(*) AS n, MIN(r.id) AS first, MAX(r.id) AS last
  FROM rental r JOIN inventory i ON i.id = r.inventory_id JOIN film f ON f.id = i.film_id
  WHERE r.returned_at > r.rented_at + INTERVAL f.rental_duration DAY;
-- 11. The same per customer, as Sakila's rewards report joins it.
SELECT cu.id, COUNT(*) AS late
  FROM customer cu JOIN rental r ON r.customer_id = cu.id
  JOIN inventory i ON i.id = r.inventory_id
  JOIN film f ON f.id = i.film_id AND r.returned_at > r.rented_at + INTERVAL f.rental_duration DAY
  GROUP BY cu.id ORDER BY late DESC, cu.id LIMIT 10;
-- 12. Sakila's get_customer_balance: DECIMAL variables summed from three SELECT ... INTO, per customer.
CREATE FUNCTION get_customer_balance(p_customer_id INT, p_effective_date DATETIME) RETURNS DECIMAL(5,2) DETERMINISTIC READS SQL DATA BEGIN DECLARE v_rentfees DECIMAL(5,2); DECLARE v_overfees INTEGER; DECLARE v_payments DECIMAL(5,2); SELECT IFNULL(SUM(film.rental_rate),0) INTO v_rentfees FROM film, inventory, rental WHERE film.id = inventory.film_id AND inventory.id = rental.inventory_id AND rental.rented_at <= p_effective_date AND rental.customer_id = p_customer_id; SELECT IFNULL(SUM(IF((TO_DAYS(rental.returned_at) - TO_DAYS(rental.rented_at)) > film.rental_duration, ((TO_DAYS(rental.returned_at) - TO_DAYS(rental.rented_at)) - film.rental_duration),0)),0) INTO v_overfees FROM rental, inventory, film WHERE film.id = inventory.film_id AND inventory.id = rental.inventory_id AND rental.rented_at <= p_effective_date AND rental.customer_id = p_customer_id; SELECT IFNULL(SUM(payment.amount),0) INTO v_payments FROM payment WHERE payment.paid_at <= p_effective_date AND payment.customer_id = p_customer_id; RETURN v_rentfees + v_overfees - v_payments; END;
SELECT id, get_customer_balance(id, '2024-06-01') AS balance FROM customer WHERE id % 25 = 1 ORDER BY id;
-- 13. Sakila's inventory_held_by_customer: an EXIT handler for NOT FOUND around SELECT ... INTO.
CREATE FUNCTION inventory_held_by_customer(p_inventory_id INT) RETURNS INT READS SQL DATA BEGIN DECLARE v_customer_id INT; DECLARE EXIT HANDLER FOR NOT FOUND RETURN NULL; SELECT customer_id INTO v_customer_id FROM rental WHERE returned_at IS NULL AND inventory_id = p_inventory_id; RETURN v_customer_id; END;
SELECT COUNT(*) AS n, SUM(inventory_held_by_customer(id) IS NOT NULL) AS held, SUM(IFNULL(inventory_held_by_customer(id), 0)) AS ids FROM inventory WHERE id <= 400;
