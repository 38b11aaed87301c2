package replica_test

import (
	gosql "database/sql"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// filterTables are the tables TestFilters writes on the primary: the
// first four before the replica starts (read by the initial copy), the
// others created mid-stream, each in its own default database.
var filterTables = []string{"flt_a.t1", "flt_a.t2", "flt_b.t1", "flt_b.t2", "flt_a.n", "flt_b.n", "flt_c.t1"}

// TestFilters: each CHANGE REPLICATION FILTER option, and several in one
// statement, keep the rows (and the DDL) of the databases and tables it
// filters out from the replica, through the initial copy and the stream,
// and let the others through; SHOW REPLICA STATUS shows the filters,
// which survive a restart; an empty list clears one.
func TestFilters(t *testing.T) {
	p := sharedPrimary(t)
	cases := []struct {
		filter string
		status map[string]string // SHOW REPLICA STATUS columns
		want   []string          // tables of filterTables whose rows reach the replica
		dbC    bool              // whether CREATE DATABASE flt_c does
	}{
		{"REPLICATE_DO_DB = (flt_a)", map[string]string{"Replicate_Do_DB": "flt_a"},
			[]string{"flt_a.t1", "flt_a.t2", "flt_a.n"}, false},
		{"REPLICATE_IGNORE_DB = (flt_a, `flt_x`)", map[string]string{"Replicate_Ignore_DB": "flt_a,flt_x"},
			[]string{"flt_b.t1", "flt_b.t2", "flt_b.n", "flt_c.t1"}, true},
		{"REPLICATE_DO_TABLE = (flt_a.t1, flt_b.n)", map[string]string{"Replicate_Do_Table": "flt_a.t1,flt_b.n"},
			[]string{"flt_a.t1", "flt_b.n"}, true},
		{"REPLICATE_IGNORE_TABLE = (flt_a.t1)", map[string]string{"Replicate_Ignore_Table": "flt_a.t1"},
			[]string{"flt_a.t2", "flt_b.t1", "flt_b.t2", "flt_a.n", "flt_b.n", "flt_c.t1"}, true},
		{`REPLICATE_WILD_DO_TABLE = ('flt\_a.%', 'flt_b.t_')`, map[string]string{"Replicate_Wild_Do_Table": `flt\_a.%,flt_b.t_`},
			[]string{"flt_a.t1", "flt_a.t2", "flt_a.n", "flt_b.t1", "flt_b.t2"}, false},
		{"REPLICATE_WILD_IGNORE_TABLE = ('flt%.t2')", map[string]string{"Replicate_Wild_Ignore_Table": "flt%.t2"},
			[]string{"flt_a.t1", "flt_b.t1", "flt_a.n", "flt_b.n", "flt_c.t1"}, true},
		// The database options pass flt_a and flt_b; then flt_b.t1 is
		// ignored by name, flt_a.t1 and t2 are taken by the pattern, and
		// the rest, matched by no table option, is not taken as there
		// are do-table options.
		{"REPLICATE_DO_DB = (flt_a, flt_b), REPLICATE_IGNORE_TABLE = (flt_b.t1), REPLICATE_WILD_DO_TABLE = ('flt_a.t%')",
			map[string]string{"Replicate_Do_DB": "flt_a,flt_b", "Replicate_Ignore_Table": "flt_b.t1", "Replicate_Wild_Do_Table": "flt_a.t%"},
			[]string{"flt_a.t1", "flt_a.t2"}, false},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			p.exec(t, "DROP DATABASE IF EXISTS flt_a", "DROP DATABASE IF EXISTS flt_b", "DROP DATABASE IF EXISTS flt_c",
				"CREATE DATABASE flt_a", "CREATE DATABASE flt_b")
			for _, tb := range filterTables[:4] {
				p.exec(t, "CREATE TABLE "+tb+" (k INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO "+tb+" VALUES (1, 'copied')")
			}
			dir := t.TempDir()
			s := startReplica(t, dir, nil)
			rdb := sqlOf(t, s)
			follow(t, rdb, p, "CHANGE REPLICATION FILTER "+c.filter)
			catchUp(t, rdb, p, 30*time.Second)
			// Mid-stream: rows into the copied tables, new tables in
			// their default databases, a new database.
			for _, tb := range filterTables[:4] {
				p.exec(t, "INSERT INTO "+tb+" VALUES (2, 'streamed')", "UPDATE "+tb+" SET v = 'updated' WHERE k = 1")
			}
			for _, db := range []string{"flt_a", "flt_b"} {
				p.execIn(t, db, "CREATE TABLE n (k INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO n VALUES (1, 'streamed')")
			}
			p.exec(t, "CREATE DATABASE flt_c")
			p.execIn(t, "flt_c", "CREATE TABLE t1 (k INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t1 VALUES (1, 'streamed')")
			catchUp(t, rdb, p, 30*time.Second)
			checkFiltered(t, p, rdb, c.want, c.dbC)
			st := replicaStatus(t, rdb)
			for _, col := range []string{"Replicate_Do_DB", "Replicate_Ignore_DB", "Replicate_Do_Table", "Replicate_Ignore_Table", "Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table"} {
				if st[col] != c.status[col] {
					t.Errorf("%s = %q, want %q", col, st[col], c.status[col])
				}
			}
			if i != len(cases)-1 {
				return
			}

			// The filters survive a restart, and apply after it.
			stopServer(t, s)
			s = startReplica(t, dir, nil)
			rdb = sqlOf(t, s)
			for _, tb := range filterTables[:4] {
				p.exec(t, "INSERT INTO "+tb+" VALUES (3, 'restarted')")
			}
			catchUp(t, rdb, p, 30*time.Second)
			checkFiltered(t, p, rdb, c.want, c.dbC)
			st = replicaStatus(t, rdb)
			for col, want := range c.status {
				if st[col] != want {
					t.Errorf("after the restart: %s = %q, want %q", col, st[col], want)
				}
			}
			if _, err := rdb.Exec("CHANGE REPLICATION FILTER REPLICATE_IGNORE_DB = (flt_b)"); !isErr(err, 1198) {
				t.Errorf("CHANGE REPLICATION FILTER while running: %v, want 1198", err)
			}
			if _, err := rdb.Exec("STOP REPLICA"); err != nil {
				t.Fatal(err)
			}
			// Syntax errors are MariaDB's 1064; a statement sets only
			// the options it names, an empty list clears one.
			for _, q := range []string{"CHANGE REPLICATION FILTER REPLICATE_DO_TABLE = (t1)", "CHANGE REPLICATION FILTER REPLICATE_WILD_DO_TABLE = ('nodot')", "CHANGE REPLICATION FILTER REPLICATE_DO_DB = flt_a"} {
				if _, err := rdb.Exec(q); !isErr(err, 1064) {
					t.Errorf("%s: %v, want 1064", q, err)
				}
			}
			if _, err := rdb.Exec("CHANGE REPLICATION FILTER REPLICATE_DO_DB = (), REPLICATE_WILD_IGNORE_TABLE = ('flt_b.%')"); err != nil {
				t.Fatal(err)
			}
			// An account without replication administration may not.
			if _, err := rdb.Exec("CREATE USER flt_user@'%'"); err != nil {
				t.Fatal(err)
			}
			udb, err := gosql.Open("mysql", fmt.Sprintf("flt_user@tcp(%s)/?timeout=5s", s.SQLAddr()))
			if err != nil {
				t.Fatal(err)
			}
			defer udb.Close()
			if _, err := udb.Exec("CHANGE REPLICATION FILTER REPLICATE_DO_DB = (flt_a)"); !isErr(err, 1227) {
				t.Errorf("CHANGE REPLICATION FILTER by an account without privileges: %v, want 1227", err)
			}
			st = replicaStatus(t, rdb)
			if st["Replicate_Do_DB"] != "" || st["Replicate_Ignore_Table"] != "flt_b.t1" || st["Replicate_Wild_Do_Table"] != "flt_a.t%" || st["Replicate_Wild_Ignore_Table"] != "flt_b.%" {
				t.Errorf("after clearing REPLICATE_DO_DB: %v", st)
			}
		})
	}
	p.exec(t, "DROP DATABASE IF EXISTS flt_a", "DROP DATABASE IF EXISTS flt_b", "DROP DATABASE IF EXISTS flt_c")
}

// checkFiltered compares the tables of filterTables on both sides: those
// in want equal row for row, the others without a row on the replica
// (absent or empty); and whether database flt_c is there.
func checkFiltered(t *testing.T, p *primary, rdb *gosql.DB, want []string, dbC bool) {
	t.Helper()
	for _, tb := range filterTables {
		if slices.Contains(want, tb) {
			sameRows(t, tb, dump(t, p.Root, tb, "k"), dump(t, rdb, tb, "k"))
			continue
		}
		var n int
		err := rdb.QueryRow("SELECT COUNT(*) FROM " + tb).Scan(&n)
		if err == nil && n != 0 {
			t.Errorf("%s (filtered out): %d rows on the replica", tb, n)
		} else if err != nil && !isErr(err, 1146) && !isErr(err, 1049) {
			t.Errorf("%s (filtered out): %v", tb, err)
		}
	}
	var name string
	err := rdb.QueryRow("SHOW DATABASES LIKE 'flt_c'").Scan(&name)
	if got := err == nil; got != dbC {
		t.Errorf("database flt_c on the replica: %v (%v), want %v", got, err, dbC)
	}
}

// isErr reports a MySQL error of number num.
func isErr(err error, num uint16) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == num
}
