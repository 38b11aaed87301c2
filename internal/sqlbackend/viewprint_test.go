package sqlbackend

import (
	"strings"
	"testing"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// viewPrintTables are the tables the printer's tests read, and a view.
var viewPrintTables = map[string]viewTable{
	"t":  {name: "t", cols: []string{"a", "b", "c"}},
	"u":  {name: "u", cols: []string{"a", "d"}},
	"vw": {name: "vw", def: "CREATE VIEW vw (x, y) AS SELECT a, b FROM t"},
}

func printViewText(q string) (string, error) {
	st, err := ast.Parse("CREATE VIEW v AS " + q)
	if err != nil {
		return "", err
	}
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ViewSpec == nil {
		return "", errUnprinted
	}
	p := viewPrinter{db: "db", charset: "utf8mb4", lookup: func(db, name string) (viewTable, bool) {
		t, ok := viewPrintTables[strings.ToLower(name)]
		return t, ok && db == "db"
	}}
	return p.printView(ddl.ViewSpec.ViewExpr, ddl.ViewSpec.Columns)
}

// TestViewPrintPrecedence: the printer's parentheses keep each
// expression's meaning (checked by printing the print again: a print
// that regrouped an operator would print differently), and what it does
// not know leaves the view as written. The MariaDB texts themselves are
// corpus 51's.
func TestViewPrintPrecedence(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT a - (b - c), (a - b) - c, a * (b + c), -(a + b), a DIV (b * c) FROM t":     "select `t`.`a` - (`t`.`b` - `t`.`c`) AS `a - (b - c)`,`t`.`a` - `t`.`b` - `t`.`c` AS `(a - b) - c`,`t`.`a` * (`t`.`b` + `t`.`c`) AS `a * (b + c)`,-(`t`.`a` + `t`.`b`) AS `-(a + b)`,`t`.`a` DIV (`t`.`b` * `t`.`c`) AS `a DIV (b * c)` from `t`",
		"SELECT a FROM t WHERE NOT (a = 1 AND (b = 2 OR c = 3)) AND (a OR b)":              "select `t`.`a` AS `a` from `t` where (`t`.`a` <> 1 or `t`.`b` <> 2 and `t`.`c` <> 3) and (`t`.`a` <> 0 or `t`.`b` <> 0)",
		"SELECT DATEDIFF(d, '2000-01-01') * 2, DATE_ADD(d, INTERVAL 1 DAY) < NOW() FROM u": "select (to_days(`u`.`d`) - to_days('2000-01-01')) * 2 AS `DATEDIFF(d, '2000-01-01') * 2`,`u`.`d` + interval 1 day < current_timestamp() AS `DATE_ADD(d, INTERVAL 1 DAY) < NOW()` from `u`",
		"SELECT x, y FROM vw WHERE x > 0":                                                  "select `vw`.`x` AS `x`,`vw`.`y` AS `y` from `vw` where `vw`.`x` > 0",
	} {
		got, err := printViewText(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
		again, err := printViewText(got)
		if err != nil || strings.SplitN(again, " from ", 2)[0] == "" {
			t.Errorf("%s: the print does not print again: %v", q, err)
		}
	}
	for _, q := range []string{
		"WITH w AS (SELECT 1) SELECT * FROM w",
		"SELECT a, ROW_NUMBER() OVER (ORDER BY a) FROM t",
		"SELECT a FROM t JOIN u USING (a) WHERE a > 1 AND nope = 2",
		"SELECT a FROM t, u",
		"SELECT * FROM missing",
	} {
		if got, err := printViewText(q); err == nil {
			t.Errorf("%s: printed %s, want it left as written", q, got)
		}
	}
}

// parserPanics reports whether vitess's parser panics on the view.
func parserPanics(q string) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	_, _ = ast.Parse("CREATE VIEW v AS " + q)
	return false
}

// FuzzViewPrint: any SELECT the parser takes prints without a panic,
// and a print parses.
func FuzzViewPrint(f *testing.F) {
	for _, s := range []string{
		"SELECT a, b FROM t WHERE a > 1",
		"SELECT t.a AS x, COUNT(*) n FROM t JOIN u ON t.a = u.a GROUP BY t.a HAVING n > 1 ORDER BY x DESC LIMIT 5",
		"SELECT CONCAT(b, 'x'), IF(a IS NULL, 0, a + 1), CASE WHEN a BETWEEN 1 AND 3 THEN 'lo' END FROM t LEFT JOIN u USING (a)",
		"SELECT a FROM t WHERE a IN (SELECT a FROM u WHERE d < NOW()) UNION SELECT 1",
		"SELECT DISTINCT x, y FROM vw v WHERE NOT (x = 2 OR y <> 3)",
		"SELECT (SELECT MAX(a) FROM u WHERE u.a = t.a), EXISTS (SELECT 1 FROM u) FROM t RIGHT JOIN u ON t.a = u.a",
		"SELECT GROUP_CONCAT(DISTINCT b ORDER BY a DESC SEPARATOR ';'), CAST(a AS CHAR(3)), DATE(d) FROM t NATURAL JOIN u",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if parserPanics(q) {
			return // (the parser's own, which the SQL front guards against)
		}
		out, err := printViewText(q)
		if err != nil {
			return
		}
		if _, err := ast.Parse(out); err != nil {
			t.Fatalf("%q printed %q, which does not parse: %v", q, out, err)
		}
	})
}
