package sqlfront

import (
	"strings"
	"testing"
)

// TestEnumStringComparisons holds MariaDB 10.11's answers (recorded on
// the anchor) to comparisons of an ENUM column, indexed (s) and not (u),
// with strings: as text under the column's collation, trailing spaces
// ignored, '2' no member's name, < and > by name, ” the empty value an
// invalid string stored (row 5). go-mysql-server converted the string to
// a member's number: 'x' was an error on the indexed column.
func TestEnumStringComparisons(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "SET sql_mode = ''", "CREATE DATABASE ec",
		"CREATE TABLE ec.e2 (id INT PRIMARY KEY, s ENUM('new','old','Gold') NULL, u ENUM('new','old','Gold') NULL, KEY is_ (s))",
		"INSERT INTO ec.e2 VALUES (1,'new','new'),(2,'old','old'),(3,'Gold','Gold'),(4,NULL,NULL),(5,'bogus','bogus')")
	for _, tc := range []struct{ cond, want string }{
		{"s = 'old '", "2"},
		{"s = '2'", "-"},
		{"s IN ('new','GOLD')", "1,3"},
		{"s <> 'new'", "2,3,5"},
		{"s > 'new'", "2"},
		{"'new' < s", "2"},
		{"s = 2", "2"},
		{"s = 'x'", "-"},
		{"s IN ('x','new')", "1"},
		{"s <=> 'x'", "-"},
		{"s <=> 'OLD'", "2"},
		{"s >= 'gold'", "1,2,3"},
		{"s < 'o'", "1,3,5"},
		{"s = ''", "5"},
		{"s < 'a'", "5"},
		{"s <= ''", "5"},
		{"s IN ('')", "5"},
		{"s != 'x'", "1,2,3,5"},
		{"u = 'old '", "2"},
		{"u = '2'", "-"},
		{"u IN ('new','GOLD')", "1,3"},
		{"u <> 'new'", "2,3,5"},
		{"u > 'new'", "2"},
		{"'new' < u", "2"},
		{"u = 2", "2"},
		{"u = 'x'", "-"},
		{"u IN ('x','new')", "1"},
		{"u <=> 'x'", "-"},
		{"u <=> 'OLD'", "2"},
		{"u >= 'gold'", "1,2,3"},
		{"u < 'o'", "1,3,5"},
		{"u = ''", "5"},
		{"u < 'a'", "5"},
		{"u <= ''", "5"},
		{"u IN ('')", "5"},
		{"u != 'x'", "1,2,3,5"},
	} {
		expectRows(t, c, "SELECT IFNULL(GROUP_CONCAT(id ORDER BY id),'-') FROM ec.e2 WHERE "+strings.ReplaceAll(tc.cond, "zt.", "ec."), tc.want)
	}
	expectRows(t, c, "SELECT id, s = 'x', s > 'new', s <=> 'x', u IN ('old','x'), s = '' FROM ec.e2 ORDER BY id",
		"1|0|0|0|0|0", "2|0|1|0|1|0", "3|0|0|0|0|0", "4|NULL|NULL|0|NULL|NULL", "5|0|0|0|0|1")
}
