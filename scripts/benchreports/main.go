// Command benchreports times the SQL corpus' report queries
// (testdata/sqlcorpus/21-reports.sql over 20-schema.inc, and the Sakila
// forms of 28-report-forms.sql, named f1, f2, ...) on HandlerDB and
// on MariaDB with the same data, and the load of the same rows as a dump
// of multi-row INSERTs. scripts/bench-reports.sh starts a HandlerDB server
// and runs it.
//
// Each report runs once on each server to warm it, then -rounds times,
// alternating the two servers; the table gives the median time of each
// side and their ratio (HandlerDB over MariaDB: above 1, HandlerDB is
// slower). The program is a single goroutine; it holds one connection to
// each server.
package main

import (
	"context"
	gosql "database/sql"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

// extraSchema adds the shop's orders and their items, scaled up from seq,
// for the primary-key-filtered join of issue #13.
const extraSchema = `CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  customer_id INT NOT NULL,
  ordered DATE NOT NULL,
  status VARCHAR(10) NOT NULL,
  KEY icust (customer_id)
);
CREATE TABLE order_items (
  order_id INT NOT NULL,
  line INT NOT NULL,
  product VARCHAR(30) NOT NULL,
  qty INT NOT NULL,
  unit_price DECIMAL(8,2) NOT NULL,
  PRIMARY KEY (order_id, line)
);
INSERT INTO orders (id, customer_id, ordered, status)
  SELECT n, (n * 7) % 500 + 1, DATE '2024-01-01' + INTERVAL (n % 300) DAY,
         CASE n % 4 WHEN 0 THEN 'pending' WHEN 1 THEN 'cancelled' ELSE 'shipped' END
  FROM seq WHERE n <= 5000;
INSERT INTO order_items (order_id, line, product, qty, unit_price)
  SELECT o.id, l.n, CONCAT('product', (o.id * l.n) % 97), 1 + (o.id + l.n) % 9, 0.50 + ((o.id * 13 + l.n) % 40) * 0.25
  FROM orders o JOIN seq l ON l.n <= 4;
`

// extraReports are the queries of issue #13 that 21-reports.sql lacks.
var extraReports = []report{
	{name: "pk-join", sql: "SELECT o.id, o.status, i.line, i.product, i.qty * i.unit_price AS total FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 2500 ORDER BY i.line"},
	{name: "pk-join-agg", sql: "SELECT o.id, COUNT(*) AS nlines, SUM(i.qty * i.unit_price) AS total FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 4321 GROUP BY o.id"},
	{name: "pk-join-cust", sql: "SELECT cu.id, r.id, r.rented_at FROM customer cu JOIN rental r ON r.customer_id = cu.id WHERE cu.id = 32 ORDER BY r.id"},
}

type report struct {
	name string
	sql  string
}

var numberRE = regexp.MustCompile(`^--\s*(\d+)\.`)

// parse splits a corpus script into statements (a statement ends with a
// line ending in ';'; comment lines are skipped) and names each SELECT
// after the number of the "-- N." comment above it.
func parse(text string) (setup []string, reports []report) {
	var cur []string
	num, k := "", 0
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if len(cur) == 0 && (t == "" || strings.HasPrefix(t, "--")) {
			if m := numberRE.FindStringSubmatch(t); m != nil {
				num, k = m[1], 0
			}
			continue
		}
		if strings.HasPrefix(t, "-- ") {
			continue
		}
		cur = append(cur, line)
		if strings.HasSuffix(t, ";") {
			stmt := strings.TrimSuffix(strings.TrimSpace(strings.Join(cur, "\n")), ";")
			cur = nil
			up := strings.ToUpper(stmt)
			if strings.HasPrefix(up, "SELECT") || strings.HasPrefix(up, "WITH") || strings.HasPrefix(up, "CALL") {
				k++
				name := num
				if k > 1 {
					name += string(rune('a' + k - 1))
				}
				reports = append(reports, report{name: name, sql: stmt})
			} else {
				setup = append(setup, stmt)
			}
		}
	}
	return setup, reports
}

func splitStmts(text string) []string {
	s, r := parse(text)
	for _, x := range r {
		s = append(s, x.sql)
	}
	return s
}

type side struct {
	name string
	db   *gosql.DB
	c    *gosql.Conn
}

func open(ctx context.Context, name, dsn string) (*side, error) {
	db, err := gosql.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &side{name: name, db: db, c: c}, nil
}

func (s *side) exec(ctx context.Context, stmt string) error {
	if _, err := s.c.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %v\n%s", s.name, err, stmt)
	}
	return nil
}

// query runs stmt and reads every row; it returns the time, the row
// count and a digest of the answer (every value's bytes, NULL apart).
func (s *side) query(ctx context.Context, stmt string) (time.Duration, int, uint64, error) {
	start := time.Now()
	rows, err := s.c.QueryContext(ctx, stmt)
	if err != nil {
		return 0, 0, 0, err
	}
	cols, _ := rows.Columns()
	vals := make([]gosql.RawBytes, len(cols))
	h := fnv.New64a()
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return 0, 0, 0, err
		}
		n++
		for _, v := range vals {
			if v == nil {
				h.Write([]byte{0xff, 0})
			} else {
				h.Write(v)
				h.Write([]byte{0})
			}
		}
	}
	err = rows.Err()
	rows.Close()
	return time.Since(start), n, h.Sum64(), err
}

func (s *side) setup(ctx context.Context, db string, stmts []string) error {
	for _, st := range []string{"DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db, "USE " + db} {
		if err := s.exec(ctx, st); err != nil {
			return err
		}
	}
	for _, st := range stmts {
		if err := s.exec(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) }

// dump reads every row of the tables from s and returns multi-row INSERTs
// of at most batch rows each, with the values as literals.
func dump(ctx context.Context, s *side, tables []string, batch int) ([]string, int, error) {
	var out []string
	total := 0
	for _, t := range tables {
		rows, err := s.c.QueryContext(ctx, "SELECT * FROM "+t+" ORDER BY 1")
		if err != nil {
			return nil, 0, err
		}
		cols, _ := rows.ColumnTypes()
		vals := make([]gosql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		numeric := make([]bool, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
			tn := cols[i].DatabaseTypeName()
			// Numbers unquoted, as mariadb-dump writes them.
			numeric[i] = strings.Contains(tn, "INT") || strings.Contains(tn, "DECIMAL") || strings.Contains(tn, "FLOAT") || strings.Contains(tn, "DOUBLE")
		}
		var b strings.Builder
		n := 0
		flush := func() {
			if n > 0 {
				out = append(out, b.String())
				b.Reset()
				n = 0
			}
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, 0, err
			}
			if n == 0 {
				b.WriteString("INSERT INTO " + t + " VALUES ")
			} else {
				b.WriteByte(',')
			}
			b.WriteByte('(')
			for i, v := range vals {
				if i > 0 {
					b.WriteByte(',')
				}
				if v == nil {
					b.WriteString("NULL")
				} else if numeric[i] {
					b.Write(v)
				} else {
					b.WriteByte('\'')
					b.WriteString(strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(string(v)))
					b.WriteByte('\'')
				}
			}
			b.WriteByte(')')
			n++
			total++
			if n == batch {
				flush()
			}
		}
		rows.Close()
		flush()
	}
	return out, total, nil
}

func main() {
	ours := flag.String("ours", "root@tcp(127.0.0.1:13406)/", "DSN of HandlerDB")
	maria := flag.String("maria", "bench:bench@tcp(127.0.0.1:13306)/", "DSN of MariaDB")
	dbName := flag.String("db", "plan26_bench", "database to create on both servers")
	corpus := flag.String("corpus", "testdata/sqlcorpus", "directory of 20-schema.inc and 21-reports.sql")
	rounds := flag.Int("rounds", 3, "timed runs of each report on each server")
	only := flag.String("only", "", "comma-separated report names to run (empty: all)")
	loadRounds := flag.Int("load-rounds", 3, "timed dump loads on each server (0: none)")
	batch := flag.Int("batch", 1000, "rows per INSERT of the dump")
	skipSetup := flag.Bool("skip-setup", false, "use the database as it is")
	flag.Parse()
	if err := run(*ours, *maria, *dbName, *corpus, *rounds, *only, *loadRounds, *batch, *skipSetup); err != nil {
		fmt.Fprintln(os.Stderr, "benchreports:", err)
		os.Exit(1)
	}
}

func run(oursDSN, mariaDSN, dbName, corpus string, rounds int, only string, loadRounds, batch int, skipSetup bool) error {
	ctx := context.Background()
	schema, err := os.ReadFile(filepath.Join(corpus, "20-schema.inc"))
	if err != nil {
		return err
	}
	text, err := os.ReadFile(filepath.Join(corpus, "21-reports.sql"))
	if err != nil {
		return err
	}
	views, reports := parse(string(text))
	reports = append(reports, extraReports...)
	setup := append(splitStmts(string(schema)), splitStmts(extraSchema)...)
	setup = append(setup, views...)
	// The Sakila forms of 28-report-forms.sql, named f1, f2, ...
	text, err = os.ReadFile(filepath.Join(corpus, "28-report-forms.sql"))
	if err != nil {
		return err
	}
	routines, forms := parse(string(text))
	for _, f := range forms {
		reports = append(reports, report{name: "f" + f.name, sql: f.sql})
	}
	setup = append(setup, routines...)
	sides := make([]*side, 2)
	for i, d := range []string{oursDSN, mariaDSN} {
		if sides[i], err = open(ctx, []string{"handlerdb", "mariadb"}[i], d); err != nil {
			return err
		}
	}
	for _, s := range sides {
		start := time.Now()
		if skipSetup {
			err = s.exec(ctx, "USE "+dbName)
		} else {
			err = s.setup(ctx, dbName, setup)
		}
		if err != nil {
			return err
		}
		fmt.Printf("# %s: set up in %s ms\n", s.name, ms(time.Since(start)))
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	fmt.Printf("%-14s %10s %10s %8s  %s\n", "report", "ours_ms", "maria_ms", "ratio", "rows")
	var worst []float64
	differ := 0
	for _, r := range reports {
		if len(want) > 0 && !want[r.name] {
			continue
		}
		times := [2][]time.Duration{}
		nrows := [2]int{}
		sums := [2]uint64{}
		errs := [2]error{}
		for round := 0; round <= rounds; round++ {
			for i, s := range sides {
				if errs[i] != nil {
					continue
				}
				d, n, sum, err := s.query(ctx, r.sql)
				if err != nil {
					errs[i] = err
					continue
				}
				nrows[i], sums[i] = n, sum
				if round > 0 { // round 0 warms
					times[i] = append(times[i], d)
				}
			}
		}
		if errs[0] != nil || errs[1] != nil {
			fmt.Printf("%-14s error: ours %v; maria %v\n", r.name, errs[0], errs[1])
			continue
		}
		mo, mm := median(times[0]), median(times[1])
		ratio := float64(mo) / float64(max(mm, time.Microsecond))
		worst = append(worst, ratio)
		note := strconv.Itoa(nrows[0])
		if nrows[0] != nrows[1] {
			note += fmt.Sprintf(" (maria %d)", nrows[1])
		}
		if sums[0] != sums[1] {
			note += " ANSWERS DIFFER"
			differ++
		}
		fmt.Printf("%-14s %10s %10s %8.2f  %s\n", r.name, ms(mo), ms(mm), ratio, note)
	}
	if len(worst) > 0 {
		slices.Sort(worst)
		fmt.Printf("# ratios: median %.2f, max %.2f, %d reports\n", worst[len(worst)/2], worst[len(worst)-1], len(worst))
	}
	if differ > 0 {
		fmt.Printf("# %d reports answer differently on the two servers\n", differ)
	}
	if loadRounds <= 0 {
		return nil
	}
	tables := []string{"country", "city", "address", "store", "staff", "customer", "category", "film", "inventory", "rental", "payment", "orders", "order_items"}
	inserts, total, err := dump(ctx, sides[1], tables, batch)
	if err != nil {
		return err
	}
	var ddl []string
	for _, st := range setup {
		if strings.HasPrefix(strings.ToUpper(st), "CREATE TABLE") && !strings.Contains(st, "TABLE seq") {
			ddl = append(ddl, st)
		}
	}
	loadDB := dbName + "_load"
	times := [2][]time.Duration{}
	for round := 0; round < loadRounds; round++ {
		for i, s := range sides {
			if err := s.setup(ctx, loadDB, ddl); err != nil {
				return err
			}
			start := time.Now()
			for _, st := range inserts {
				if err := s.exec(ctx, st); err != nil {
					return err
				}
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	for _, s := range sides {
		if err := s.exec(ctx, "DROP DATABASE "+loadDB); err != nil {
			return err
		}
		if err := s.exec(ctx, "USE "+dbName); err != nil {
			return err
		}
	}
	mo, mm := median(times[0]), median(times[1])
	fmt.Printf("%-14s %10s %10s %8.2f  %d rows in %d INSERTs\n", "dump-load", ms(mo), ms(mm), float64(mo)/float64(mm), total, len(inserts))
	return nil
}
