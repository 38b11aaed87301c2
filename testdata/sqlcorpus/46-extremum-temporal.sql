-- GREATEST and LEAST of dates and times compare them as dates and times
-- and are typed as MariaDB types them: TIME(n) and DATETIME(n) of the
-- most digits, DATE when all are DATEs, a text among them read as one of
-- them (issue #27: go-mysql-server failed on TIMEs with "unsupported
-- type", printed a DATETIME(2) with six digits, and a text with a date
-- gave the DOUBLE 0).
CREATE TABLE ext (id INT PRIMARY KEY, d DATE, dt DATETIME(2), t TIME(1), t0 TIME);
INSERT INTO ext VALUES (1, '2020-01-01', '2020-01-01 01:02:03.45', '10:00:00.5', '-01:00:00'), (2, '2021-05-06', '2019-12-31 23:59:59.99', '-10:00:00.5', '09:00:00'), (3, NULL, NULL, NULL, NULL);
SELECT id, GREATEST(d, dt), LEAST(d, dt), GREATEST(t, t0), LEAST(t, t0), GREATEST(d, '2020-06-01'), LEAST(t0, '00:00:00') FROM ext ORDER BY id;
SELECT GREATEST(CAST('2020-01-01 1:2:3.4' AS DATETIME(2)), CAST('2020-01-01' AS DATETIME)), LEAST(CAST('1:2:3.456' AS TIME(3)), CAST('1:2:3' AS TIME)), LEAST(TIME '10:00:00', TIME '09:00:00'), GREATEST(TIME '-10:00:00', TIME '09:00:00', NULL);
SELECT GREATEST(DATE '2020-01-02', DATE '2021-03-04'), LEAST(DATE '2020-01-02', CAST('2020-01-02 1:2:3.4' AS DATETIME(1))), GREATEST('2020-01-05', DATE '2019-01-01'), LEAST('10:00:00', TIME '11:00:00');
SELECT id FROM ext WHERE GREATEST(d, dt) > '2020-06-01' ORDER BY id;
DROP TABLE ext;
