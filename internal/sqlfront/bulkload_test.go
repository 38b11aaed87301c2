package sqlfront

import (
	"context"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	gosql "database/sql"

	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
	"github.com/handlerdb/handlerdb/internal/typevectors"
)

// bulkVector is one conv file of ../shared/typevectors: its CREATE TABLE
// (without the database) and its inputs.
type bulkVector struct {
	name   string
	create string
	inputs []*string // nil: NULL
}

// loadBulkVectors reads every conv/<type>.tsv of the type vectors.
func loadBulkVectors(t *testing.T) []bulkVector {
	t.Helper()
	convs, err := typevectors.Convs()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]bulkVector, len(convs))
	for i, c := range convs {
		create := strings.Replace(strings.TrimSuffix(c.Create, " ENGINE=InnoDB"), "tv.", "", 1)
		out[i] = bulkVector{name: c.Name, create: create, inputs: c.Inputs}
	}
	return out
}

// dumpQuote quotes s as mariadb-dump writes a string.
func dumpQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case 0:
			b.WriteString(`\0`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 26:
			b.WriteString(`\Z`)
		case '\\', '\'', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

var plainNumber = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// literalForms are the ways a dump may write input: quoted (with
// doubled quotes instead of backslashes too), unquoted when it is a
// number, and as hexadecimal.
func literalForms(in *string) []string {
	if in == nil {
		return []string{"NULL"}
	}
	s := *in
	forms := []string{dumpQuote(s), "'" + strings.ReplaceAll(s, "'", "''") + "'"}
	if strings.ContainsAny(s, "\\\x00\n\r\x1a\"") {
		forms = forms[:1]
	}
	if t := strings.TrimSpace(s); plainNumber.MatchString(t) && t == s {
		forms = append(forms, s)
	}
	if s != "" {
		forms = append(forms, "0x"+hex.EncodeToString([]byte(s)), "X'"+strings.ToUpper(hex.EncodeToString([]byte(s)))+"'")
	}
	return forms
}

// stmtOutcome is what a client sees of one statement.
type stmtOutcome struct {
	err          string // (a query's rows are its warnings)
	affected, id int64
	warnings     []string
}

func runOutcome(t *testing.T, c *gosql.Conn, q string) stmtOutcome {
	t.Helper()
	ctx := context.Background()
	var o stmtOutcome
	if corpusIsQuery(q) {
		rows, err := queryStrings(c, q)
		if err != nil {
			rows = append(rows, err.Error())
		}
		o.warnings = rows
		return o
	}
	res, err := c.ExecContext(ctx, q)
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			o.err = fmt.Sprintf("%d %s %s", me.Number, string(me.SQLState[:]), me.Message)
		} else {
			o.err = err.Error()
		}
		if errors.Is(err, driver.ErrBadConn) {
			t.Fatalf("%s: %v", q, err)
		}
	} else {
		o.affected, _ = res.RowsAffected()
		o.id, _ = res.LastInsertId()
	}
	w, err := queryStrings(c, "SHOW WARNINGS")
	if err != nil {
		w = []string{"SHOW WARNINGS fails"} // (its message lists the bytes of the database name)
	}
	o.warnings = w
	return o
}

// tableDump returns every stored row of db.name, primary key order, as
// the engine holds it (each value's fields, bytes in hex).
func tableDump(t *testing.T, e *engine.Engine, db, name string) []string {
	t.Helper()
	tb, err := e.Catalog().Table(db, name)
	if err != nil {
		t.Fatal(err)
	}
	it, err := e.NewIterator(tb, tb.Primary, engine.Range{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for {
		r, err := it.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range r {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(valueBytes(v))
		}
		out = append(out, b.String())
	}
}

func valueBytes(v types.Value) string {
	if v.Null {
		return "NULL"
	}
	return fmt.Sprintf("%d/%x/%x", v.I, v.F, v.B)
}

// bulkPair is one server with two databases loaded the same way, one
// with the bulk insert path and one without.
type bulkPair struct {
	t          *testing.T
	ts         *testServer
	fast, slow *gosql.Conn
	statements int
}

func newBulkPair(t *testing.T, prefix string) *bulkPair {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	mustExec(t, root, "CREATE DATABASE "+prefix+"_fast", "CREATE DATABASE "+prefix+"_slow")
	return &bulkPair{t: t, ts: ts, fast: ts.conn(prefix + "_fast"), slow: ts.conn(prefix + "_slow")}
}

// both runs q on the two databases and fails unless the client sees the
// same of it; it returns the fast side's outcome.
func (bp *bulkPair) both(q string) stmtOutcome {
	bp.t.Helper()
	mh := bp.ts.s.mh
	mh.noBulk.Store(true)
	slow := runOutcome(bp.t, bp.slow, q)
	mh.noBulk.Store(false)
	fast := runOutcome(bp.t, bp.fast, q)
	if strings.ReplaceAll(fmt.Sprint(slow), "_slow", "_db") != strings.ReplaceAll(fmt.Sprint(fast), "_fast", "_db") {
		bp.t.Fatalf("%.300s:\nordinary: %+v\nbulk:     %+v", q, slow, fast)
	}
	bp.statements++
	return fast
}

// countsAfter runs q and right after it (SHOW WARNINGS would reset them)
// reads ROW_COUNT() and LAST_INSERT_ID() on both databases, and fails
// unless they agree.
func (bp *bulkPair) countsAfter(q string) {
	bp.t.Helper()
	mh := bp.ts.s.mh
	var got [2]string
	for i, c := range []*gosql.Conn{bp.slow, bp.fast} {
		mh.noBulk.Store(i == 0)
		_, err := c.ExecContext(context.Background(), q)
		got[i] = fmt.Sprint(err != nil, queryRows(bp.t, c, "SELECT ROW_COUNT(), LAST_INSERT_ID()"))
	}
	mh.noBulk.Store(false)
	if got[0] != got[1] {
		bp.t.Fatalf("%s: ordinary %s, bulk %s", q, got[0], got[1])
	}
}

// sameTables fails unless each table holds the same bytes on both sides.
func (bp *bulkPair) sameTables(prefix string, names ...string) {
	bp.t.Helper()
	for _, n := range names {
		f := tableDump(bp.t, bp.ts.e, prefix+"_fast", n)
		s := tableDump(bp.t, bp.ts.e, prefix+"_slow", n)
		if strings.Join(f, "\n") != strings.Join(s, "\n") {
			bp.t.Fatalf("table %s differs:\nbulk:     %q\nordinary: %q", n, f, s)
		}
	}
}

// TestBulkInsertVectors loads every type vector's inputs, in every form a
// dump writes them, through the bulk insert path and through the
// ordinary path, under a strict and a non-strict sql_mode: each statement
// must answer the same (error, counts, warnings) and the tables must hold
// the same bytes.
func TestBulkInsertVectors(t *testing.T) {
	vecs := loadBulkVectors(t)
	bp := newBulkPair(t, "bv")
	mh := bp.ts.s.mh
	var names []string
	for _, v := range vecs {
		bp.both(v.create)
		names = append(names, strings.Fields(v.create)[2])
	}
	for mode, sqlMode := range []string{"STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION", ""} {
		bp.both("SET sql_mode = '" + sqlMode + "'")
		for vi, v := range vecs {
			name := names[vi]
			base := 100000 * mode
			k := base
			var all []string
			var clean []string
			for _, in := range v.inputs {
				for _, f := range literalForms(in) {
					q := fmt.Sprintf("INSERT INTO %s VALUES (%d,%s)", name, k, f)
					if k%2 == 1 {
						q = fmt.Sprintf("INSERT INTO `%s` (c, `k`) VALUES (%s,%d)", name, f, k)
					}
					o := bp.both(q)
					if o.err == "" && len(o.warnings) == 0 {
						clean = append(clean, fmt.Sprintf("(%d,%s)", base+20000+len(clean), f))
					}
					all = append(all, fmt.Sprintf("(%d,%s)", k+30000, f))
					k++
				}
			}
			// The clean ones in one statement, which the bulk path
			// must take...
			if len(clean) > 0 {
				before := mh.bulkRows.Load()
				bp.both("INSERT INTO " + name + " VALUES\n" + strings.Join(clean, ",\n") + ";")
				if got := mh.bulkRows.Load() - before; got != int64(len(clean)) {
					t.Errorf("%s: the bulk path stored %d of %d clean rows", name, got, len(clean))
				}
			}
			// ... and all of them (a value that warns sends the
			// statement to the ordinary path).
			bp.both("INSERT INTO " + name + " VALUES " + strings.Join(all, ","))
		}
	}
	bp.sameTables("bv", names...)
	if mh.bulkRows.Load() < 1000 {
		t.Fatalf("the bulk path stored only %d rows", mh.bulkRows.Load())
	}
	t.Logf("%d statements, %d rows on the bulk path", bp.statements, mh.bulkRows.Load())
}

// TestBulkInsertErrors: a duplicate key in the middle of a statement
// leaves nothing of it, under autocommit (one writer job) and inside a
// transaction (a savepoint), on both paths alike; the earlier statements
// of the transaction stay.
func TestBulkInsertErrors(t *testing.T) {
	bp := newBulkPair(t, "be")
	mh := bp.ts.s.mh
	bp.both("CREATE TABLE d (id INT PRIMARY KEY, u VARCHAR(10), n DECIMAL(6,2), UNIQUE KEY uu (u))")
	bp.both("CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5))")
	bp.both("INSERT INTO d VALUES (1,'one',1.50)")
	before := mh.bulkRows.Load()
	bp.both("INSERT INTO d VALUES (2,'two',-2.25),(3,'three',3),(1,'uno',0.5),(4,'four',4)")
	bp.both("INSERT INTO d VALUES (5,'five',5),(6,'one',6)")
	bp.both("INSERT INTO d VALUES (7,'seven',7),(8,'eight',8),(7,'again',9)")
	bp.both("INSERT INTO d VALUES (9,'nine',9),(10,'ten',10)")
	if mh.bulkRows.Load() == before {
		t.Fatal("the bulk path took none of the statements")
	}
	bp.sameTables("be", "d")
	if got := queryRows(t, bp.fast, "SELECT id FROM d ORDER BY id"); strings.Join(got, ",") != "1,9,10" {
		t.Fatalf("rows after the failed statements: %v", got)
	}
	bp.both("BEGIN")
	bp.both("INSERT INTO d VALUES (11,'eleven',11),(12,'twelve',12)")
	bp.both("INSERT INTO d VALUES (13,'x13',13),(11,'dup',0)")
	bp.both("INSERT INTO d VALUES (14,'x14',14)")
	bp.both("SELECT * FROM d")
	bp.both("COMMIT")
	bp.sameTables("be", "d")
	if got := queryRows(t, bp.fast, "SELECT id FROM d ORDER BY id"); strings.Join(got, ",") != "1,9,10,11,12,14" {
		t.Fatalf("rows after the transaction: %v", got)
	}
	bp.both("SET autocommit = 0")
	bp.both("INSERT INTO d VALUES (20,'x20',20)")
	bp.both("ROLLBACK")
	bp.both("SET autocommit = 1")
	bp.both("LOCK TABLES d WRITE")
	bp.both("INSERT INTO d VALUES (21,'x21',21),(22,'x22',22.5)")
	bp.both("UNLOCK TABLES")
	// Explicit AUTO_INCREMENT values move the counter; a row that needs
	// a generated id takes the ordinary path.
	bp.both("INSERT INTO ai VALUES (5,'a'),(7,'b')")
	bp.both("INSERT INTO ai VALUES (NULL,'c')")
	bp.both("INSERT INTO ai (v, id) VALUES ('d', 20), ('e', 3)")
	bp.both("INSERT INTO ai VALUES (0,'f')")
	bp.both("SELECT LAST_INSERT_ID(), ROW_COUNT()")
	bp.countsAfter("INSERT INTO ai VALUES (30,'g'),(31,'h')")
	bp.countsAfter("INSERT INTO ai VALUES (32,'g'),(31,'h')")
	bp.countsAfter("INSERT INTO ai VALUES (NULL,'i'),(NULL,'j')")
	bp.countsAfter("INSERT INTO d VALUES (50,'x50',1),(51,'x51',2),(52,'x52',3)")
	// A child table: with foreign_key_checks on, the ordinary path checks
	// the parents; off (as dumps set it), the rows are stored as they
	// are, on either path.
	bp.both("CREATE TABLE child (id INT PRIMARY KEY, did INT, CONSTRAINT fd FOREIGN KEY (did) REFERENCES d (id))")
	if o := bp.both("INSERT INTO child VALUES (1,1),(2,999)"); !strings.HasPrefix(o.err, "1452 ") {
		t.Fatalf("a missing parent with the checks on: %+v", o)
	}
	bp.both("SET foreign_key_checks = 0")
	before = mh.bulkRows.Load()
	bp.both("INSERT INTO child VALUES (1,1),(2,999)")
	if mh.bulkRows.Load() != before+2 {
		t.Fatal("the bulk path did not take a child table with foreign_key_checks=0")
	}
	bp.both("SET foreign_key_checks = 1")
	bp.both("INSERT INTO child VALUES (3,998)")
	// Columns of other character sets.
	bp.both("CREATE TABLE cs (k INT PRIMARY KEY, l VARCHAR(10) CHARACTER SET latin1, a VARCHAR(10) CHARACTER SET utf8mb3, bn BINARY(3))")
	bp.both(`INSERT INTO cs VALUES (1,'é','x','é'),(2,'ÿ\\\'','y',0x0102)`)
	bp.both("INSERT INTO cs VALUES (3,'日本','z','')")
	bp.both("INSERT INTO cs VALUES (4,'a','😀','')")
	bp.sameTables("be", "child", "cs")
	// A read-only engine (a replica) refuses the write alike.
	bp.ts.e.SetReadOnly(true)
	if o := bp.both("INSERT INTO d VALUES (60,'x60',1),(61,'x61',2)"); !strings.HasPrefix(o.err, "1290 ") {
		t.Fatalf("read-only: %+v", o)
	}
	bp.both("BEGIN")
	bp.both("INSERT INTO d VALUES (62,'x62',1)")
	bp.both("COMMIT")
	bp.ts.e.SetReadOnly(false)
	// Statements the scanner or the converter refuses answer as before.
	for _, q := range []string{
		"INSERT INTO d VALUES (30,'a',1),(31,'b')",
		"INSERT INTO d VALUES (32,'abcdefghijkl',1)",
		"INSERT INTO d VALUES (33,'x',1e3),(34,'y',123456789)",
		"INSERT INTO d VALUES (35,NULL,NULL),(NULL,'z',1)",
		"INSERT INTO nosuch VALUES (1)",
		"INSERT INTO d VALUES (36,'a\\%b',1)",
		"INSERT INTO d (id, id) VALUES (37, 38)",
		"INSERT INTO d VALUES (39,'q' 'r',1)",
		"INSERT INTO d VALUES (40,'s',-0.5),(41,'t',.25),(42,'u',7.)",
		"INSERT INTO d VALUES (43,_binary 'v',1)",
	} {
		bp.both(q)
	}
	bp.sameTables("be", "d", "ai")
}

// TestBulkInsertPrivileges: a user without INSERT gets the ordinary
// path's refusal.
func TestBulkInsertPrivileges(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	mustExec(t, root, "CREATE DATABASE bp", "CREATE TABLE bp.t (k INT PRIMARY KEY)",
		"CREATE USER 'ro'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON bp.* TO 'ro'@'%'")
	d, err := gosql.Open("mysql", ts.dsn("ro", "pw", "bp"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	before := ts.s.mh.bulkRows.Load()
	_, err = d.Exec("INSERT INTO t VALUES (1),(2)")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1142 {
		t.Fatalf("insert without the privilege: %v", err)
	}
	if ts.s.mh.bulkRows.Load() != before {
		t.Fatal("the bulk path ran for a user without INSERT")
	}
	expectRows(t, root, "SELECT COUNT(*) FROM bp.t", "0")
}

// TestBulkInsertDecimals: random number literals into DECIMAL columns of
// many shapes (UNSIGNED, scale 0, the largest), signed, with leading and
// trailing zeros, in and out of range, through the bulk path (whose exact
// literals skip go-mysql-server's decimals: exactDecimal) and through the
// ordinary path: same answers, same bytes.
func TestBulkInsertDecimals(t *testing.T) {
	bp := newBulkPair(t, "bd")
	mh := bp.ts.s.mh
	shapes := []struct {
		def  string
		p, s int
	}{{"DECIMAL(1,0)", 1, 0}, {"DECIMAL(5,0)", 5, 0}, {"DECIMAL(5,2)", 5, 2}, {"DECIMAL(10,3)", 10, 3}, {"DECIMAL(12,4) UNSIGNED", 12, 4},
		{"DECIMAL(30,30)", 30, 30}, {"DECIMAL(65,30)", 65, 30}, {"DECIMAL(65,0)", 65, 0}}
	r := rand.New(rand.NewPCG(7, 29))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	var names []string
	for i, sh := range shapes {
		name := fmt.Sprintf("d%d", i)
		names = append(names, name)
		bp.both("CREATE TABLE " + name + " (k INT PRIMARY KEY, c " + sh.def + ")")
		k := 0
		for st := range 12 {
			var rows []string
			for range 40 {
				if st%2 == 0 {
					// (a statement of literals the column holds: the
					// bulk path takes it whole)
					lit := digits(r.IntN(sh.p - sh.s + 1))
					if r.IntN(3) > 0 {
						lit += "." + digits(r.IntN(sh.s+1))
					}
					if lit == "" || lit[0] == '.' {
						lit = "0" + lit
					}
					if r.IntN(4) == 0 && (!strings.Contains(sh.def, "UNSIGNED") || strings.Trim(lit, "0.") == "") {
						lit = "-" + lit // (-0 in an UNSIGNED column too)
					}
					rows = append(rows, fmt.Sprintf("(%d,%s)", k, lit))
					k++
					continue
				}
				lit := digits(r.IntN(8))
				if r.IntN(4) == 0 {
					lit = strings.Repeat("0", r.IntN(3)) + lit
				}
				if r.IntN(3) > 0 {
					lit += "." + digits(r.IntN(6))
				}
				if lit == "" || lit[0] == '.' {
					lit = "0" + lit
				}
				if r.IntN(20) == 0 {
					lit = digits(1+r.IntN(40)) + "." + digits(r.IntN(32))
				}
				if r.IntN(4) == 0 {
					lit = "-" + lit
				}
				rows = append(rows, fmt.Sprintf("(%d,%s)", k, lit))
				k++
			}
			bp.both("INSERT INTO " + name + " VALUES " + strings.Join(rows, ","))
		}
		// Edges, a statement each (a warning of one row sends the whole
		// statement to the ordinary path, which would hide another's).
		whole, frac := strings.Repeat("9", sh.p-sh.s), strings.Repeat("9", sh.s)
		for _, lit := range []string{"-5", "-0", "-0.0", "0", "-1", "00012", "-00012.50", "1.", whole, "-" + whole, whole + "." + frac,
			"9" + whole, "0." + frac + "9", whole + "." + frac + "0", "-" + whole + "." + frac + "5"} {
			bp.both(fmt.Sprintf("INSERT INTO %s VALUES (%d,%s)", name, k, lit))
			k++
		}
	}
	bp.sameTables("bd", names...)
	if mh.bulkRows.Load() == 0 {
		t.Fatal("no statement took the bulk path")
	}
	t.Logf("%d statements, %d rows on the bulk path", bp.statements, mh.bulkRows.Load())
}
