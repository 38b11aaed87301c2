package mariadb

import (
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// TestViewFilters: conditions on a view's plain columns (aliased or not)
// are copied into it, and every answer is the one of the view read
// whole: a LEFT JOIN's NULL side, a computed column (not copied), a view
// over one table read by its key, a condition mixing two columns.
func TestViewFilters(t *testing.T) {
	// (One: the body of "one" reads cu by its key; its result projection
	// must name the projected columns by their ids, oddrule.go.)
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE co (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, UNIQUE KEY uname (name))",
		"CREATE TABLE cu (id INT PRIMARY KEY, co_id INT NULL, first VARCHAR(20), d DATE, active TINYINT NOT NULL)",
		"INSERT INTO co VALUES (1, 'Norway'), (2, 'Spain')",
		"INSERT INTO cu VALUES (1, 1, 'Ann', '2024-01-05', 1), (2, 2, 'Bo', '2024-02-01', 1), (3, NULL, 'Cy', NULL, 0), (4, 1, 'Di', '2023-12-31', 0)",
		"CREATE VIEW cl AS SELECT cu.id, CONCAT(cu.first, '!') AS label, co.name AS country, cu.active, cu.d FROM cu LEFT JOIN co ON co.id = cu.co_id",
		"CREATE VIEW one AS SELECT id, d, first FROM cu",
		"CREATE VIEW cj AS SELECT cu.id, co.name AS country FROM cu JOIN co ON co.id = cu.co_id")
	b.ExpectRows(t, ctx, "SELECT id FROM cj WHERE country = 'Norway' ORDER BY id", "1", "4")
	b.ExpectRows(t, ctx, "SELECT id, label FROM cl WHERE country = 'Norway' AND active = 1 ORDER BY id", "1|Ann!")
	b.ExpectRows(t, ctx, "SELECT id FROM cl WHERE country IS NULL ORDER BY id", "3")
	b.ExpectRows(t, ctx, "SELECT id FROM cl WHERE label = 'Bo!'", "2")
	b.ExpectRows(t, ctx, "SELECT id FROM cl WHERE id > active + 2 ORDER BY id", "3", "4")
	b.ExpectRows(t, ctx, "SELECT id, country FROM (SELECT cu.id, co.name AS country FROM cu JOIN co ON co.id = cu.co_id) t WHERE country <> 'Spain' ORDER BY id", "1|Norway", "4|Norway")
	b.ExpectRows(t, ctx, "SELECT first, d FROM one WHERE id = 4", "Di|2023-12-31 00:00:00 +0000 UTC")

	q := "SELECT id FROM cj WHERE country = 'Norway'"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	if s := sql.DebugString(n); !strings.Contains(s, "co.name") || !strings.Contains(s, "Norway, Norway") {
		t.Fatalf("%s: the view does not read co by its name:\n%s", q, s)
	}
}
