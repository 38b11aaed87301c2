package sqlfront

import "testing"

// TestWindowKeys holds MariaDB 10.11's answers (recorded on the anchor)
// to windows whose PARTITION BY and ORDER BY are expressions, which
// windowKeysRule (mariadb/windowkeys.go) computes once per row under the
// window: several keys, one shared by two windows, NULLs, a ROWS frame,
// LAG.
func TestWindowKeys(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE wk", "CREATE TABLE wk.w (id INT PRIMARY KEY, x INT, y INT, s VARCHAR(10), d DATE)",
		"INSERT INTO wk.w VALUES (1,1,10,'ab','2024-01-01'),(2,2,20,'AB','2024-01-03'),(3,3,20,'c','2024-01-02'),(4,4,5,'ab','2024-01-05'),"+
			"(5,5,NULL,'dd','2024-01-04'),(6,6,15,NULL,'2024-01-01'),(7,7,10,'c',NULL),(8,8,30,'ab','2024-01-08')")
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"SELECT id, ROW_NUMBER() OVER (PARTITION BY x % 3 ORDER BY y DESC, id) FROM wk.w ORDER BY id",
			[]string{"1|1", "2|2", "3|1", "4|3", "5|3", "6|2", "7|2", "8|1"}},
		{"SELECT id, SUM(y) OVER (PARTITION BY UPPER(s) ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wk.w ORDER BY id",
			[]string{"1|10", "2|30", "3|20", "4|25", "5|NULL", "6|15", "7|30", "8|35"}},
		{"SELECT id, RANK() OVER (ORDER BY y * 2 DESC), DENSE_RANK() OVER (ORDER BY y * 2 DESC) FROM wk.w ORDER BY id",
			[]string{"1|5|4", "2|2|2", "3|2|2", "4|7|5", "5|8|6", "6|4|3", "7|5|4", "8|1|1"}},
		{"SELECT id, LAG(y) OVER (PARTITION BY x % 2 ORDER BY LENGTH(s), id) FROM wk.w ORDER BY id",
			[]string{"1|10", "2|15", "3|NULL", "4|20", "5|10", "6|NULL", "7|20", "8|5"}},
		{"SELECT id, COUNT(*) OVER (PARTITION BY YEAR(d), MONTH(d)), FIRST_VALUE(id) OVER (PARTITION BY YEAR(d), MONTH(d) ORDER BY DAYOFMONTH(d) DESC, id) FROM wk.w ORDER BY id",
			[]string{"1|7|8", "2|7|8", "3|7|8", "4|7|8", "5|7|8", "6|7|8", "7|1|7", "8|7|8"}},
	} {
		expectRows(t, c, tc.q, tc.want...)
	}
}
