package sqlbackend

import (
	"errors"
	"testing"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// TestAlterOnStaleDefinition: an ALTER whose table was resolved before
// another ALTER committed is refused with ER_TABLE_DEF_CHANGED instead of
// applying a column map made for the old definition (which would move the
// values of one column into another).
func TestAlterOnStaleDefinition(t *testing.T) {
	b := NewTestBackend(t)
	db := b.Session()
	b.MustExec(t, db, "CREATE DATABASE ad", "CREATE TABLE ad.t (id INT PRIMARY KEY, a INT, b INT, c INT)", "INSERT INTO ad.t VALUES (1, 10, 20, 30)")
	ctx := b.Session()
	sdb, err := b.P.Database(ctx, "ad")
	if err != nil {
		t.Fatal(err)
	}
	st, ok, err := sdb.GetTableInsensitive(ctx, "t")
	if err != nil || !ok {
		t.Fatalf("table t: %v %v", ok, err)
	}
	stale := st.(*table)
	b.MustExec(t, db, "ALTER TABLE ad.t DROP COLUMN a") // commits first
	err = stale.DropColumn(ctx, "c")
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != errtable.ERTableDefChanged {
		t.Fatalf("ALTER on a stale definition: %v, want error %d", err, errtable.ERTableDefChanged)
	}
	b.ExpectRows(t, db, "SELECT id, b, c FROM ad.t", "1|20|30")
	// One statement of several clauses still works: each clause resolves
	// the table as the previous one left it.
	b.MustExec(t, db, "ALTER TABLE ad.t ADD COLUMN x INT DEFAULT 7, DROP COLUMN b, ADD INDEX ix (x), MODIFY c BIGINT")
	b.ExpectRows(t, db, "SELECT id, c, x FROM ad.t WHERE x = 7", "1|30|7")
}
