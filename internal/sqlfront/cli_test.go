package sqlfront

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMariaDBClient drives the mariadb command-line client (Debian package
// mariadb-client: apt-get install -y mariadb-client) against the server:
// SHOW TABLES, SHOW CREATE TABLE, a join, a GROUP BY, what the client
// prints for the version and for DOUBLE/DECIMAL/DATETIME values, and SQL
// PREPARE.
func TestMariaDBClient(t *testing.T) {
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("mariadb client not installed (apt-get install -y mariadb-client)")
		}
	}
	ts := startTestServer(t, "", Config{RootPassword: "clipw"})
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	run := func(db, sql string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		args := []string{"--protocol=TCP", "-h", host, "-P", port, "-u", "root", "-pclipw",
			"--batch", "--raw", "--skip-ssl", "-e", sql}
		if db != "" {
			args = append(args, db)
		}
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sql, err, out)
		}
		return string(out)
	}
	run("", "CREATE DATABASE shop")
	run("shop", `CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, city VARCHAR(20));
		CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer INT NOT NULL, amount DECIMAL(10,2) NOT NULL,
			ratio DOUBLE, at DATETIME(3), KEY icust(customer));
		INSERT INTO customers VALUES (1,'ann','Oslo'),(2,'bob','Rome'),(3,'cy','Oslo');
		INSERT INTO orders (customer, amount, ratio, at) VALUES (1, 10.5, 1e20, '2024-01-02 03:04:05'),
			(1, 4, 0.5, '2024-01-02 03:04:05.5'), (2, 7.25, 1.0/3, NULL), (3, 1, NULL, NULL)`)

	if out := run("shop", "SHOW TABLES"); out != "Tables_in_shop\ncustomers\norders\n" {
		t.Errorf("SHOW TABLES:\n%s", out)
	}
	out := run("shop", "SHOW CREATE TABLE orders")
	for _, want := range []string{"CREATE TABLE `orders`", "`amount` decimal(10,2) NOT NULL", "AUTO_INCREMENT", "PRIMARY KEY (`id`)", "KEY `icust` (`customer`)"} {
		if !strings.Contains(out, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, out)
		}
	}
	out = run("shop", "SELECT c.name, o.amount FROM customers c JOIN orders o ON o.customer = c.id ORDER BY o.id")
	if out != "name\tamount\nann\t10.50\nann\t4.00\nbob\t7.25\ncy\t1.00\n" {
		t.Errorf("join:\n%s", out)
	}
	// SUM(DECIMAL) keeps the scale, as MariaDB prints it (15.50).
	out = run("shop", "SELECT c.city, COUNT(*), SUM(o.amount), MAX(o.amount) FROM customers c JOIN orders o ON o.customer = c.id GROUP BY c.city ORDER BY c.city")
	if out != "city\tCOUNT(*)\tSUM(o.amount)\tMAX(o.amount)\nOslo\t3\t15.50\t10.50\nRome\t1\t7.25\t7.25\n" {
		t.Errorf("GROUP BY:\n%s", out)
	}
	out = run("shop", "SELECT ratio, at FROM orders ORDER BY id")
	if out != "ratio\tat\n1e20\t2024-01-02 03:04:05.000\n0.5\t2024-01-02 03:04:05.500\n0.333333333\tNULL\nNULL\tNULL\n" {
		t.Errorf("DOUBLE and DATETIME(3) as MariaDB prints them:\n%s", out)
	}
	out = run("", "SELECT @@version, @@version_comment, @@collation_server")
	if !strings.Contains(out, DefaultVersionString+"\tHandlerDB\tutf8mb4_general_ci") {
		t.Errorf("version:\n%s", out)
	}
	out = run("shop", "EXPLAIN SELECT * FROM orders WHERE customer = 1")
	if !strings.Contains(out, "\tref\ticust\ticust\t") {
		t.Errorf("EXPLAIN:\n%s", out)
	}
	// PREPARE's OK packet carried go-mysql-server's short info behind
	// vitess's fixed length byte: the client answered 2027 (malformed
	// packet).
	out = run("shop", "PREPARE s FROM 'SELECT ? + 1 AS n'; SET @a = 41; EXECUTE s USING @a; DEALLOCATE PREPARE s")
	if out != "n\n42\n" {
		t.Errorf("PREPARE and EXECUTE:\n%s", out)
	}
}
