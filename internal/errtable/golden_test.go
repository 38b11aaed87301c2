package errtable_test

import (
	"bufio"
	"context"
	gosql "database/sql"
	"errors"
	"fmt"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/hsproto"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
	"github.com/handlerdb/handlerdb/internal/types"
)

// golden is how one engine condition reaches clients: the HandlerSocket
// reply and the MySQL error, both checked on the error the real engine
// returns (through the table) and, where a request can cause the
// condition, through the real fronts.
type golden struct {
	kind *engine.ErrorKind
	// engineErr makes the engine return the condition.
	engineErr func(g *fixture) error
	// hs is the whole reply line on the HandlerSocket ports.
	hs string
	// hsOpen (a P line, when set), then the SQL statements hsBetween,
	// then hsReq on the write port must give hs (hsReq empty: the
	// HandlerSocket protocol has no request that causes the condition).
	hsOpen    string
	hsBetween []string
	hsReq     string
	// num, state and msg are the MySQL error.
	num   uint16
	state string
	msg   string
	// sql, run in order on one connection to database g (a statement
	// starting "other: " runs on another), must fail at its last
	// statement with that error (empty: no statement causes it).
	sql []string
}

// setup is the schema the cases use, in database g.
var setup = []string{
	"CREATE DATABASE g",
	"CREATE TABLE g.t (k INT PRIMARY KEY, v INT)",
	"INSERT INTO g.t VALUES (1, 10)",
	"CREATE INDEX ix ON g.t (v)",
	"CREATE TABLE g.a (id INT PRIMARY KEY)",
	"CREATE TABLE g.b (id INT PRIMARY KEY)",
	"CREATE TABLE g.ti (id TINYINT AUTO_INCREMENT PRIMARY KEY, v INT)",
	"INSERT INTO g.ti VALUES (127, 1)",
	"CREATE TABLE g.ak (id INT AUTO_INCREMENT, KEY k (id))",
	"CREATE TABLE g.f (k INT PRIMARY KEY, d DOUBLE)",
	"CREATE TABLE g.gone (k INT PRIMARY KEY)",
	"CREATE TABLE g.tx (k INT PRIMARY KEY)",
	"CREATE TABLE g.ro (k INT PRIMARY KEY)",
	"CREATE TABLE g.fp (id INT PRIMARY KEY)",
	"CREATE TABLE g.fc (id INT PRIMARY KEY, p INT, CONSTRAINT fkc FOREIGN KEY (p) REFERENCES g.fp (id))",
	"INSERT INTO g.fp VALUES (1)",
	"INSERT INTO g.fc VALUES (1, 1)",
}

// fkText is InnoDB's description of g.fc's foreign key.
const fkText = "`g`.`fc`, CONSTRAINT `fkc` FOREIGN KEY (`p`) REFERENCES `fp` (`id`)"

var goldens = []golden{
	{kind: engine.ErrDuplicateKey,
		engineErr: func(g *fixture) error { return g.insert("t", engine.Row{{I: 1}, {I: 2}}) },
		hs:        "1\t1\t121\n", hsOpen: "P\t1\tg\tt\tPRIMARY\tk,v\n", hsReq: "1\t+\t2\t1\t3\n",
		num: 1062, state: "23000", msg: "Duplicate entry '1' for key 'PRIMARY'",
		sql: []string{"INSERT INTO t VALUES (1, 3)"}},
	{kind: engine.ErrNoDatabase,
		engineErr: func(g *fixture) error { _, err := g.e.Catalog().Table("nodb", "t"); return err },
		hs:        "1\t1\topen_table\n", hsReq: "P\t2\tnodb\tt\tPRIMARY\tk\n",
		num: 1049, state: "42000", msg: "Unknown database 'nodb'",
		sql: []string{"USE nodb"}},
	{kind: engine.ErrNoTable,
		engineErr: func(g *fixture) error { _, err := g.e.Catalog().Table("g", "nosuch"); return err },
		hs:        "1\t1\topen_table\n", hsReq: "P\t2\tg\tnosuch\tPRIMARY\tk\n",
		num: 1146, state: "42S02", msg: "Table 'g.nosuch' doesn't exist",
		sql: []string{"SELECT * FROM nosuch"}},
	{kind: engine.ErrNoIndex,
		engineErr: func(g *fixture) error { return g.dropIndex("t", "nosuch") },
		hs:        "2\t1\tidxnum\n", hsReq: "P\t2\tg\tt\tnosuch\tk\n",
		num: 1091, state: "42000", msg: "Can't DROP INDEX `nosuch`; check that it exists",
		sql: []string{"DROP INDEX nosuch ON t"}},
	{kind: engine.ErrDatabaseExists,
		engineErr: func(g *fixture) error { return g.ddl(func(tx *engine.Job) error { return tx.CreateDatabase("g") }) },
		hs:        "1\t1\t1\n",
		num:       1007, state: "HY000", msg: "Can't create database 'g'; database exists",
		sql: []string{"CREATE DATABASE g"}},
	{kind: engine.ErrTableExists,
		engineErr: func(g *fixture) error {
			return g.ddl(func(tx *engine.Job) error { return tx.RenameTable("g", "a", "g", "b") })
		},
		hs:  "1\t1\t1\n",
		num: 1050, state: "42S01", msg: "Table 'g.b' already exists",
		sql: []string{"RENAME TABLE a TO b"}},
	{kind: engine.ErrIndexExists,
		engineErr: func(g *fixture) error { return g.addIndex(engine.IndexDef{Name: "ix", Columns: []string{"k"}}) },
		hs:        "1\t1\t1\n",
		num:       1061, state: "42000", msg: "Duplicate key name 'ix'",
		sql: []string{"CREATE INDEX ix ON t (k)"}},
	{kind: engine.ErrBadDefinition,
		engineErr: func(g *fixture) error { return g.addIndex(engine.IndexDef{Primary: true, Columns: []string{"v"}}) },
		hs:        "1\t1\t1\n",
		num:       1105, state: "HY000", msg: "engine: bad definition: cannot add a primary key to an existing table"},
	{kind: engine.ErrBadAutoIncrement,
		engineErr: func(g *fixture) error { return g.dropIndex("ak", "k") },
		hs:        "1\t1\t1\n",
		num:       1075, state: "42000", msg: "Incorrect table definition; there can be only one auto column and it must be defined as a key",
		sql: []string{"DROP INDEX k ON ak"}},
	{kind: engine.ErrKeyParts,
		engineErr: func(g *fixture) error {
			t := g.table("t")
			return g.e.Find(t, &engine.Query{Key: []types.Value{{I: 1}, {I: 2}}}, func(engine.Row) bool { return true })
		},
		hs: "2\t1\tkpnum\n", hsOpen: "P\t3\tg\tt\tPRIMARY\tk\n", hsReq: "3\t=\t2\t1\t2\n",
		num: 1105, state: "HY000", msg: "engine: too many key parts"},
	{kind: engine.ErrBadRow,
		engineErr: func(g *fixture) error { return g.insert("t", engine.Row{{I: 9}}) },
		hs:        "1\t1\t1\n",
		num:       1105, state: "HY000", msg: "engine: row does not match table"},
	{kind: engine.ErrBadValue,
		engineErr: func(g *fixture) error { return g.insert("f", engine.Row{{I: 1}, {F: math.NaN()}}) },
		hs:        "1\t1\t1\n",
		num:       1105, state: "HY000", msg: "engine: value cannot be stored: NaN in column d"},
	{kind: engine.ErrAutoIncrementOverflow,
		engineErr: func(g *fixture) error { return g.insert("ti", engine.Row{{Null: true}, {I: 2}}) },
		hs:        "1\t1\t1\n", hsOpen: "P\t4\tg\tti\tPRIMARY\tv\n", hsReq: "4\t+\t1\t2\n",
		num: 1467, state: "HY000", msg: "Failed to read auto-increment value from storage engine",
		sql: []string{"INSERT INTO ti (v) VALUES (2)"}},
	{kind: engine.ErrTableDefChanged,
		engineErr: func(g *fixture) error {
			x := g.e.Begin()
			defer x.Rollback()
			if _, err := x.Insert(g.table("tx"), engine.Row{{I: 1}}); err != nil {
				return err
			}
			g.exec("DROP TABLE tx", "CREATE TABLE tx (k INT PRIMARY KEY)") // another table of the name
			return x.Commit(context.Background())
		},
		hs: "2\t1\ttblnum\n", hsOpen: "P\t5\tg\tgone\tPRIMARY\tk\n", hsBetween: []string{"DROP TABLE g.gone"}, hsReq: "5\t=\t1\t1\n",
		num: 1412, state: "HY000", msg: "Table definition has changed, please retry transaction (g.tx)",
		sql: []string{"BEGIN", "INSERT INTO tx VALUES (1)", "other: DROP TABLE tx", "COMMIT"}},
	{kind: engine.ErrCorrupt,
		engineErr: func(g *fixture) error {
			return &engine.Error{Kind: engine.ErrCorrupt, DB: "g", Table: "t", Detail: "index entry of g.t without its row"}
		},
		hs:  "1\t1\t1\n",
		num: 1030, state: "HY000", msg: "Got error from storage engine: engine: corrupt data: index entry of g.t without its row"},
	{kind: engine.ErrClosed,
		engineErr: func(g *fixture) error {
			e, err := engine.Open(engine.Options{Dir: g.t.TempDir(), Durability: engine.DurabilityNone})
			if err != nil {
				return err
			}
			e.Close()
			return e.Update(context.Background(), func(*engine.Job) error { return nil })
		},
		hs:  "1\t1\t1\n",
		num: 1053, state: "08S01", msg: "Server shutdown in progress"},
	{kind: engine.ErrReadOnly,
		engineErr: func(g *fixture) error {
			// A replica: clients' writes are refused until it stops.
			g.e.SetReadOnly(true)
			g.t.Cleanup(func() { g.e.SetReadOnly(false) })
			if err := g.ddl(func(tx *engine.Job) error { return nil }); err != nil {
				return fmt.Errorf("a job that writes nothing failed: %w", err)
			}
			if err := g.e.Update(engine.Privileged(context.Background()), func(tx *engine.Job) error {
				_, err := tx.Insert(g.table("ro"), engine.Row{{I: 2}})
				return err
			}); err != nil {
				return fmt.Errorf("a privileged job failed: %w", err)
			}
			return g.insert("ro", engine.Row{{I: 3}})
		},
		hs: "1\t1\t1\n", hsOpen: "P\t6\tg\tro\tPRIMARY\tk\n", hsReq: "6\t+\t1\t4\n",
		num: 1290, state: "HY000", msg: "The MariaDB server is running with the --read-only option so it cannot execute this statement",
		sql: []string{"other: INSERT INTO ro VALUES (5)"}},
	{kind: engine.ErrReadLocked,
		engineErr: func(g *fixture) error {
			// FLUSH TABLES WITH READ LOCK: its holder's writes fail (the
			// others' wait; HandlerSocket never holds it). The SQL
			// statements below leave it held: the case ends with UNLOCK.
			g.t.Cleanup(func() {
				if _, err := g.sql.Exec("UNLOCK TABLES"); err != nil {
					g.t.Error(err)
				}
			})
			l, err := g.e.LockWrites(context.Background())
			if err != nil {
				return err
			}
			defer l.Release()
			return g.e.Update(engine.HoldingReadLock(context.Background()), func(tx *engine.Job) error {
				_, err := tx.Insert(g.table("ro"), engine.Row{{I: 6}})
				return err
			})
		},
		hs:  "1\t1\t1\n",
		num: 1223, state: "HY000", msg: "Can't execute the query because you have a conflicting read lock",
		sql: []string{"FLUSH TABLES WITH READ LOCK", "INSERT INTO ro VALUES (7)"}},
	{kind: engine.ErrNoReferencedRow,
		engineErr: func(g *fixture) error {
			return g.ddl(func(tx *engine.Job) error {
				_, err := tx.CheckedInsert(g.table("fc"), engine.Row{{I: 2}, {I: 9}})
				return err
			})
		},
		hs: "1\t1\t151\n", hsOpen: "P\t6\tg\tfc\tPRIMARY\tid,p\n", hsReq: "6\t+\t2\t2\t9\n",
		num: 1452, state: "23000", msg: "Cannot add or update a child row: a foreign key constraint fails (" + fkText + ")",
		sql: []string{"INSERT INTO fc VALUES (2, 9)"}},
	{kind: engine.ErrRowIsReferenced,
		engineErr: func(g *fixture) error {
			return g.ddl(func(tx *engine.Job) error {
				t := g.table("fp")
				_, err := tx.FindModify(t, &engine.Query{Index: t.Primary, Key: []types.Value{{I: 1}}}, &engine.Modify{Op: engine.ModDelete})
				return err
			})
		},
		hs: "1\t1\t152\n", hsOpen: "P\t7\tg\tfp\tPRIMARY\tid\n", hsReq: "7\t=\t1\t1\t1\t0\tD\n",
		num: 1451, state: "23000", msg: "Cannot delete or update a parent row: a foreign key constraint fails (" + fkText + ")",
		sql: []string{"DELETE FROM fp WHERE id = 1"}},
	{kind: engine.ErrFKDepthExceeded,
		engineErr: func(g *fixture) error {
			return &engine.Error{Kind: engine.ErrFKDepthExceeded, DB: "g", Table: "fc", Detail: fkText}
		},
		hs:  "1\t1\t193\n",
		num: 1296, state: "HY000", msg: "Got error 193 '" + fkText + "' from InnoDB"},
	{kind: engine.ErrCommitFailed,
		engineErr: func(g *fixture) error {
			cause := errors.New("write wal: no space left on device")
			return &engine.Error{Kind: engine.ErrCommitFailed, Detail: cause.Error(), Err: cause}
		},
		hs:  "1\t1\tcommit\n",
		num: 1105, state: "HY000", msg: "engine: group commit: write wal: no space left on device"},
	// The SQL sides of the two lock conditions need two sessions inside
	// transactions: sqlbackend's locks_test.go runs them.
	{kind: engine.ErrLockWaitTimeout,
		engineErr: func(g *fixture) error {
			a, b := g.e.Locks().NewLocker(), g.e.Locks().NewLocker()
			defer a.ReleaseAll()
			defer b.ReleaseAll()
			key := engine.LockKey(nil, g.table("t"), engine.Row{{I: 1}, {I: 10}})
			if _, err := a.Lock(context.Background(), g.table("t"), key, true, time.Second); err != nil {
				return err
			}
			_, err := b.Lock(context.Background(), g.table("t"), key, false, 10*time.Millisecond)
			return err
		},
		hs:  "1\t1\t1\n",
		num: 1205, state: "HY000", msg: "Lock wait timeout exceeded; try restarting transaction"},
	{kind: engine.ErrDeadlock,
		engineErr: func(g *fixture) error {
			a, b := g.e.Locks().NewLocker(), g.e.Locks().NewLocker()
			defer a.ReleaseAll()
			defer b.ReleaseAll()
			t := g.table("t")
			k1, k2 := engine.LockKey(nil, t, engine.Row{{I: 1}, {}}), engine.LockKey(nil, t, engine.Row{{I: 2}, {}})
			ctx := context.Background()
			if _, err := a.Lock(ctx, t, k1, true, time.Second); err != nil {
				return err
			}
			if _, err := b.Lock(ctx, t, k2, true, time.Second); err != nil {
				return err
			}
			done := make(chan error, 1)
			go func() { _, err := b.Lock(ctx, t, k1, true, 10*time.Second); done <- err }()
			for g.e.Locks().Waiting() == 0 {
				time.Sleep(time.Millisecond)
			}
			_, err := a.Lock(ctx, t, k2, true, 10*time.Second)
			a.ReleaseAll()
			if berr := <-done; berr != nil {
				return berr
			}
			return err
		},
		hs:  "1\t1\t1\n",
		num: 1213, state: "40001", msg: "Deadlock found when trying to get lock; try restarting transaction"},
	// A job's change of a row a transaction holds; the fronts wait for the
	// lock instead (hsfront's and sqlbackend's row-lock tests), so only a
	// caller that cannot wait reports it, as a lock wait timeout.
	{kind: engine.ErrRowLocked,
		engineErr: func(g *fixture) error {
			t := g.table("t")
			row := engine.Row{{I: 907}, {I: 9070}}
			if err := g.insert("t", row); err != nil {
				return err
			}
			l := g.e.Locks().NewLocker()
			defer l.ReleaseAll()
			if _, err := l.Lock(context.Background(), t, engine.LockKey(nil, t, row), true, time.Second); err != nil {
				return err
			}
			return g.ddl(func(tx *engine.Job) error { _, err := tx.Delete(t, row); return err })
		},
		hs:  "1\t1\t1\n",
		num: 1205, state: "HY000", msg: "Lock wait timeout exceeded; try restarting transaction"},
}

// TestGolden checks every engine condition's HandlerSocket reply and MySQL
// error: on the error the engine returns, and through the HandlerSocket
// and SQL fronts where a request causes it.
func TestGolden(t *testing.T) {
	g := startFixture(t)
	covered := map[*engine.ErrorKind]bool{}
	for _, c := range goldens {
		t.Run(strings.TrimPrefix(c.kind.Error(), "engine: "), func(t *testing.T) {
			covered[c.kind] = true
			g.t = t
			err := c.engineErr(g)
			if got := engine.KindOf(err); got != c.kind {
				t.Fatalf("engine error %v: kind %v, want %v", err, got, c.kind)
			}
			e := errtable.Lookup(err)
			if got := string(hsproto.AppendError(nil, e.HS)); got != c.hs {
				t.Errorf("table: HS reply %q, want %q", got, c.hs)
			}
			se := e.SQLError(err)
			if se.Num != int(c.num) || se.State != c.state || se.Message != c.msg {
				t.Errorf("table: MySQL error %d (%s) %q, want %d (%s) %q", se.Num, se.State, se.Message, c.num, c.state, c.msg)
			}
			if c.hsReq != "" {
				if got := g.hsRun(c); got != c.hs {
					t.Errorf("HandlerSocket front: %q, want %q", got, c.hs)
				}
			}
			if len(c.sql) > 0 {
				num, state, msg := g.sqlRun(c.sql)
				if num != c.num || state != c.state || msg != c.msg {
					t.Errorf("SQL front: %d (%s) %q, want %d (%s) %q", num, state, msg, c.num, c.state, c.msg)
				}
			}
		})
	}
	for _, k := range engine.Kinds() {
		if !covered[k] {
			t.Errorf("engine condition %q has no golden case", k)
		}
	}
}

// TestNoKind: an error of no engine condition is a storage failure on
// HandlerSocket and go-mysql-server's 1105 with its text on SQL.
func TestNoKind(t *testing.T) {
	err := fmt.Errorf("pebble: %w", errors.New("boom"))
	e := errtable.Lookup(err)
	if e.Kind != nil || e.HS != hsproto.ErrStorage {
		t.Fatalf("Lookup(%v) = %v %v", err, e.Kind, e.HS)
	}
	if se := e.SQLError(err); se.Num != 1105 || se.State != "HY000" || se.Message != "pebble: boom" {
		t.Errorf("SQLError = %v", se)
	}
}

// TestPlainWrap: a kind wrapped by fmt.Errorf names its object in its
// text, and the message takes it from there.
func TestPlainWrap(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: ix", engine.ErrNoIndex), "Can't DROP INDEX `ix`; check that it exists"},
		{fmt.Errorf("%w: d.t", engine.ErrNoTable), "Table 'd.t' doesn't exist"},
		{fmt.Errorf("%w: d", engine.ErrNoDatabase), "Unknown database 'd'"},
		{fmt.Errorf("%w: d.t", engine.ErrTableExists), "Table 'd.t' already exists"},
		// The kind decides, not the text: a plain bad definition that
		// mentions AUTO_INCREMENT stays 1105.
		{fmt.Errorf("%w: AUTO_INCREMENT column x", engine.ErrBadDefinition), "engine: bad definition: AUTO_INCREMENT column x"},
	} {
		if got := errtable.Lookup(c.err).SQLError(c.err).Message; got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
	if got := errtable.Name(fmt.Errorf("%w: d.t", engine.ErrNoTable)); got != "d.t" {
		t.Errorf("Name = %q", got)
	}
}

// TestHandlerNumbers: a numeric HandlerSocket reply is either the
// condition's own handler error number or 1, HandlerDB's answer to every
// storage failure but a duplicate key.
func TestHandlerNumbers(t *testing.T) {
	for _, k := range engine.Kinds() {
		e := errtable.Lookup(k)
		if e.Kind != k {
			t.Fatalf("Lookup(%v) is the entry of %v", k, e.Kind)
		}
		w := e.HS.Word()
		if w == "" || w[0] < '0' || w[0] > '9' {
			continue
		}
		if e.HS.Code() != 1 || (w != "1" && w != fmt.Sprint(k.Errno())) {
			t.Errorf("%v: HS reply %d %s, errno %d", k, e.HS.Code(), w, k.Errno())
		}
	}
}

// TestMySQLTable: every entry has a state of five characters, a name, and
// a format that takes the entry's arguments.
func TestMySQLTable(t *testing.T) {
	for _, k := range append(engine.Kinds(), nil) {
		var err error = errors.New("x")
		if k != nil {
			err = k
		}
		e := errtable.Lookup(err)
		m, ok := errtable.MySQL(e.MySQL)
		if !ok || len(m.State) != 5 || !strings.HasPrefix(m.Name, "ER_") {
			t.Errorf("%v: MySQL %d %+v", k, e.MySQL, m)
		}
		if msg := e.SQLError(err).Message; strings.Contains(msg, "%!") {
			t.Errorf("%v: message %q", k, msg)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("SQLError of an unknown number did not panic")
		}
	}()
	errtable.SQLError(9999)
}

// fixture is an engine with both fronts on ephemeral ports and the setup
// schema.
type fixture struct {
	t     *testing.T
	e     *engine.Engine
	hs    *hsfront.Server
	sql   *gosql.DB
	other *gosql.DB
}

func startFixture(t *testing.T) *fixture {
	logrus.SetLevel(logrus.ErrorLevel)
	e, err := engine.Open(engine.Options{Dir: t.TempDir(), Durability: engine.DurabilityNone})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	hs := hsfront.New(e, hsfront.Config{ReadAddr: "127.0.0.1:0", WriteAddr: "127.0.0.1:0"})
	if err := hs.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
	})
	sq, err := sqlfront.New(e, sqlfront.Config{Address: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sq.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	g := &fixture{t: t, e: e, hs: hs}
	root := g.open(sq, "")
	for _, s := range setup {
		if _, err := root.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	g.sql, g.other = g.open(sq, "g"), g.open(sq, "g")
	g.sql.SetMaxOpenConns(1) // one session: BEGIN ... COMMIT
	return g
}

func (g *fixture) open(sq *sqlfront.Server, db string) *gosql.DB {
	d, err := gosql.Open("mysql", fmt.Sprintf("root@tcp(%s)/%s?timeout=5s", sq.Addr(), db))
	if err != nil {
		g.t.Fatal(err)
	}
	g.t.Cleanup(func() { d.Close() })
	return d
}

func (g *fixture) table(name string) *engine.Table {
	t, err := g.e.Catalog().Table("g", name)
	if err != nil {
		g.t.Fatal(err)
	}
	return t
}

// insert inserts row into g.name in a writer job.
func (g *fixture) insert(name string, row engine.Row) error {
	t := g.table(name)
	return g.ddl(func(tx *engine.Job) error { _, err := tx.Insert(t, row); return err })
}

// addIndex adds index def to g.t.
func (g *fixture) addIndex(def engine.IndexDef) error {
	return g.ddl(func(tx *engine.Job) error { _, err := tx.AddIndex("g", "t", &def); return err })
}

// dropIndex drops index name of g.table.
func (g *fixture) dropIndex(table, name string) error {
	return g.ddl(func(tx *engine.Job) error { _, err := tx.DropIndex("g", table, name); return err })
}

// ddl runs fn as a writer job.
func (g *fixture) ddl(fn func(tx *engine.Job) error) error {
	return g.e.Update(context.Background(), fn)
}

// hsRun sends c's HandlerSocket requests on a new write-port connection
// and returns the reply to hsReq.
func (g *fixture) hsRun(c golden) string {
	conn, err := net.Dial("tcp", g.hs.WriteAddr().String())
	if err != nil {
		g.t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	do := func(req string) string {
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := conn.Write([]byte(req)); err != nil {
			g.t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			g.t.Fatalf("%q: %v", req, err)
		}
		return line
	}
	if c.hsOpen != "" {
		if got := do(c.hsOpen); got != "0\t1\n" {
			g.t.Fatalf("%q: %q", c.hsOpen, got)
		}
	}
	g.exec(c.hsBetween...)
	return do(c.hsReq)
}

// exec runs statements on a connection of its own, failing the test on
// an error.
func (g *fixture) exec(stmts ...string) {
	for _, s := range stmts {
		if _, err := g.other.Exec(s); err != nil {
			g.t.Fatalf("%s: %v", s, err)
		}
	}
}

// sqlRun runs stmts and returns the error of the last one, which must be
// the only one to fail.
func (g *fixture) sqlRun(stmts []string) (uint16, string, string) {
	for i, s := range stmts {
		db := g.sql
		if o, ok := strings.CutPrefix(s, "other: "); ok {
			db, s = g.other, o
		}
		_, err := db.Exec(s)
		if i < len(stmts)-1 {
			if err != nil {
				g.t.Fatalf("%s: %v", s, err)
			}
			continue
		}
		var me *mysql.MySQLError
		if !errors.As(err, &me) {
			g.t.Fatalf("%s: %v, want a MySQL error", s, err)
		}
		return me.Number, string(me.SQLState[:]), me.Message
	}
	return 0, "", ""
}
