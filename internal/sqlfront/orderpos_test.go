package sqlfront

import "testing"

// TestOrderByParenthesizedPosition: ORDER BY (1) orders by the first
// column, in a SELECT and a UNION, as MariaDB 10.11 answered each of
// these on the anchor (go-mysql-server did not order).
func TestOrderByParenthesizedPosition(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	const src = "(SELECT 2 x UNION SELECT 1 UNION SELECT 3) t"
	expectRows(t, c, "SELECT x FROM "+src+" ORDER BY (1)", "1", "2", "3")
	expectRows(t, c, "(SELECT 2 x) UNION (SELECT 1) UNION (SELECT 3) ORDER BY (1) DESC", "3", "2", "1")
	expectRows(t, c, "SELECT 2 x UNION SELECT 1 UNION SELECT 3 ORDER BY (1) DESC", "3", "2", "1")
	expectRows(t, c, "SELECT x, 10 - x y FROM "+src+" ORDER BY ((2))", "3|7", "2|8", "1|9")
}
