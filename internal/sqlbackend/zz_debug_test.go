package sqlbackend

import (
	"fmt"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

func TestZZDebug(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.session()
	for _, q := range []string{"CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, ti TINYINT, n INT NOT NULL)"} {
		if _, err := b.query(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	ctx.SetCurrentDatabase("d")
	for _, q := range []string{"UPDATE t SET ti = 1000 WHERE id = 1"} {
		n, err := b.se.AnalyzeQuery(ctx.WithQuery(q), q)
		if err != nil {
			t.Log(err)
			continue
		}
		transform.Inspect(n, func(n sql.Node) bool {
			fmt.Printf("%T\n", n)
			if x, ok := n.(*plan.IndexedTableAccess); ok {
				fmt.Printf("  %T %T\n", x.TableNode, x.TableNode.UnderlyingTable())
			}
			return true
		})
		fmt.Println(sql.DebugString(n))
	}
}
