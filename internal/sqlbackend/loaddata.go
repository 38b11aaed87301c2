package sqlbackend

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The bulk load: LOAD DATA [LOCAL] INFILE of a delimited text file,
// stored without go-mysql-server's per-row insert, in writer jobs of
// loadChunk rows each. The file is read as MariaDB's reader reads it
// (readLoadRow: FIELDS TERMINATED BY, [OPTIONALLY] ENCLOSED BY, ESCAPED
// BY, LINES TERMINATED BY, IGNORE n LINES, \N and, with an enclosing
// character, an unenclosed NULL as NULL). Each field goes through the
// conversions of the ordinary path, in its order (storeConvert under the
// session's sql_mode, the column type's Convert, valueFromSQL), and the
// conditions MariaDB's LOAD DATA raises are raised as it raises them: a
// short line (1261 for each missing column, which gets NULL when its
// default is NULL and its type's implicit value otherwise), a long one
// (1262), \N into a NOT NULL column (1263, the implicit value), a value
// the column does not hold (1366, 1265, ... with the line as the row);
// warnings under a non-strict sql_mode, with IGNORE, or with LOCAL
// without REPLACE (MariaDB's LOCAL implies IGNORE), otherwise the first
// is the statement's error and nothing is stored. A duplicate key is the
// statement's error (nothing stored), is skipped with a 1062 warning
// (IGNORE, LOCAL), or replaces the row it meets (REPLACE: a table whose
// only unique key is its primary key).
//
// PrepareLoadData declines (nil: go-mysql-server's LOAD DATA runs) a
// statement with a SET clause, user variables, LINES STARTING BY, a
// partition, a character set other than utf8mb4/utf8mb3, terminators
// that are not ASCII or where one starts the other, a table where the
// ordinary path does more than store rows (as PrepareBulkInsert: triggers,
// checks, JSON, generated or spatial columns, checked foreign keys), an
// AUTO_INCREMENT, TIMESTAMP or DEFAULT CURRENT_TIMESTAMP column, a
// temporary table, a column left out of the column list without a
// default, REPLACE inside a transaction, and a server file outside
// secure_file_priv or that cannot be opened. It opens the file (asks the
// client for a LOCAL one) before the statement runs and reads it a window
// at a time as lines are converted (a LOCAL file is sent by the client
// once, so once it is asked for the statement stays on this path).
//
// Under autocommit with no engine transaction the node converts a chunk
// of loadChunk rows at a time and writes it into one staged job
// (runStaged, engine.BeginStage), whose commit ingests the whole load at
// once: readers see none of it before the statement ends, and a crash
// (or a failure: a duplicate key or a failing line of a plain LOAD, an
// engine failure with IGNORE or REPLACE, a lock wait of REPLACE that
// times out) leaves none of it. Inside a transaction every line is
// converted first and the rows go to the session's engine.Txn after a
// savepoint, as the bulk insert does.

// loadChunk is the number of rows converted at a time.
const loadChunk = 2048

// LoadFormat is the FIELDS and LINES clause of a LOAD DATA.
type LoadFormat struct {
	FieldTerm, LineTerm string
	Enclosed, Escaped   byte // 0: none
	HasEnclosed         bool
	HasEscaped          bool
}

// LoadStatement is a LOAD DATA the bulk load may serve.
type LoadStatement struct {
	Local           bool
	File            string
	DB, Table       string
	Columns         []string // nil: every column in table order
	Ignore, Replace bool
	IgnoreLines     int64
	Format          LoadFormat
	Auth            ast.AuthInformation
}

// LoadStatementOf returns the bulk load's reading of a parsed LOAD DATA,
// or nil when it has a clause the bulk load leaves to go-mysql-server. It
// is a pure function of the statement.
func LoadStatementOf(l *ast.Load) *LoadStatement {
	if l == nil || len(l.Partition) > 0 || len(l.SetExprs) > 0 {
		return nil
	}
	switch strings.ToLower(l.Charset) {
	case "", "utf8mb4", "utf8mb3", "utf8":
	default:
		return nil
	}
	ls := &LoadStatement{
		Local: bool(l.Local), File: l.Infile,
		DB: l.Table.DbQualifier.String(), Table: l.Table.Name.String(),
		Format: LoadFormat{FieldTerm: "\t", LineTerm: "\n", Escaped: '\\', HasEscaped: true},
		Auth:   l.Auth,
	}
	switch l.IgnoreOrReplace {
	case ast.IgnoreStr:
		ls.Ignore = true
	case ast.ReplaceStr:
		ls.Replace = true
	case "":
	default:
		return nil
	}
	if l.IgnoreNum != nil {
		var n int64
		if _, err := fmt.Sscan(string(l.IgnoreNum.Val), &n); err != nil || n < 0 {
			return nil
		}
		ls.IgnoreLines = n
	}
	for _, c := range l.Columns {
		name := c.String()
		if strings.HasPrefix(name, "@") {
			return nil
		}
		ls.Columns = append(ls.Columns, name)
	}
	if f := l.Fields; f != nil {
		if f.TerminatedBy != nil {
			ls.Format.FieldTerm = string(f.TerminatedBy.Val)
		}
		if f.EnclosedBy != nil {
			d := f.EnclosedBy.Delim.Val
			if len(d) > 1 {
				return nil
			}
			if len(d) == 1 {
				ls.Format.Enclosed, ls.Format.HasEnclosed = d[0], true
			}
		}
		if f.EscapedBy != nil {
			d := f.EscapedBy.Val
			if len(d) > 1 {
				return nil
			}
			ls.Format.Escaped, ls.Format.HasEscaped = 0, len(d) == 1
			if len(d) == 1 {
				ls.Format.Escaped = d[0]
			}
		}
	}
	if ln := l.Lines; ln != nil {
		if ln.StartingBy != nil && len(ln.StartingBy.Val) > 0 {
			return nil
		}
		if ln.TerminatedBy != nil {
			ls.Format.LineTerm = string(ln.TerminatedBy.Val)
		}
	}
	f := &ls.Format
	if f.FieldTerm == "" || f.LineTerm == "" || !ascii(f.FieldTerm) || !ascii(f.LineTerm) ||
		strings.HasPrefix(f.FieldTerm, f.LineTerm) || strings.HasPrefix(f.LineTerm, f.FieldTerm) ||
		f.HasEnclosed && f.Enclosed >= 0x80 || f.HasEscaped && f.Escaped >= 0x80 {
		// (Empty terminators are the fixed-width format.)
		return nil
	}
	return ls
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// loadReader reads the rows of a LOAD DATA file as it comes: data is a
// window of at most loadWindow bytes (more only for a longer line's
// look-ahead) refilled from src, so that a load holds one window of the
// file, not the file. It belongs to one statement's goroutine.
type loadReader struct {
	src    io.Reader // the file past data; nil once read to its end or failed
	err    error     // the read error that ended src
	data   []byte
	pos    int
	ahead  int // the look-ahead the format needs: a terminator after an escape or a quote
	f      *LoadFormat
	buf    []byte   // the row's field bytes
	ends   []int    // end of each field in buf
	nulls  []bool   // each field is NULL
	fields [][]byte // the row's fields, into buf
}

// loadWindow is the size of a loadReader's window of the file.
const loadWindow = 1 << 20

func newLoadReader(src io.Reader, f *LoadFormat) *loadReader {
	return &loadReader{src: src, f: f, ahead: 2 + max(len(f.FieldTerm), len(f.LineTerm))}
}

// fill moves the unread bytes to the front of the window and reads
// until the window holds at least r.ahead of them, or the file ends.
func (r *loadReader) fill() {
	rest := len(r.data) - r.pos
	if cap(r.data) < loadWindow || cap(r.data) < 2*r.ahead {
		buf := make([]byte, 0, max(loadWindow, 2*r.ahead))
		r.data = append(buf, r.data[r.pos:]...)
	} else {
		r.data = r.data[:copy(r.data[:cap(r.data)], r.data[r.pos:])]
	}
	r.pos = 0
	for first := true; r.src != nil && (first || rest < r.ahead); first = false {
		n, err := r.src.Read(r.data[rest:cap(r.data)])
		rest += n
		r.data = r.data[:rest]
		if err != nil {
			if err != io.EOF {
				r.err = err
			}
			r.src = nil
		}
	}
}

// next reads one line into r.fields and r.nulls; false at the end of the
// file (or when reading it failed: r.err).
func (r *loadReader) next() bool {
	if len(r.data)-r.pos < r.ahead && r.src != nil {
		r.fill()
	}
	if r.pos >= len(r.data) {
		return false
	}
	r.buf, r.ends, r.nulls = r.buf[:0], r.ends[:0], r.nulls[:0]
	f := r.f
	d := r.data
	for {
		if len(d)-r.pos < r.ahead && r.src != nil {
			r.fill()
			d = r.data
		}
		enclosed := f.HasEnclosed && r.pos < len(d) && d[r.pos] == f.Enclosed
		if enclosed {
			r.pos++
		}
		start := len(r.buf)
		foundNull := false
		endLine := false
	field:
		for {
			if len(d)-r.pos < r.ahead && r.src != nil {
				r.fill()
				d = r.data
			}
			if r.pos >= len(d) {
				if enclosed {
					// Not closed at the end of the file: MariaDB keeps
					// the opening character.
					r.buf = append(r.buf[:start+1], r.buf[start:]...)
					r.buf[start] = f.Enclosed
				}
				endLine = true
				break
			}
			c := d[r.pos]
			if f.HasEscaped && c == f.Escaped {
				if r.pos+1 >= len(d) {
					r.buf = append(r.buf, c)
					r.pos++
					continue
				}
				e := d[r.pos+1]
				if f.Escaped != f.Enclosed || !f.HasEnclosed || e == f.Escaped {
					r.pos += 2
					switch e {
					case 'n':
						e = '\n'
					case 't':
						e = '\t'
					case 'r':
						e = '\r'
					case 'b':
						e = '\b'
					case '0':
						e = 0
					case 'Z':
						e = 26
					case 'N':
						foundNull = true
					}
					r.buf = append(r.buf, e)
					continue
				}
				// The escape is the enclosing character: a quote.
			}
			if enclosed && c == f.Enclosed {
				if r.pos+1 < len(d) && d[r.pos+1] == f.Enclosed {
					r.buf = append(r.buf, c)
					r.pos += 2
					continue
				}
				rest := d[r.pos+1:]
				switch {
				case len(rest) == 0:
					r.pos++
					endLine = true
					break field
				case startsWith(rest, f.FieldTerm):
					r.pos += 1 + len(f.FieldTerm)
					break field
				case startsWith(rest, f.LineTerm):
					r.pos += 1 + len(f.LineTerm)
					endLine = true
					break field
				}
				r.buf = append(r.buf, c)
				r.pos++
				continue
			}
			if !enclosed && (c == f.FieldTerm[0] || c == f.LineTerm[0]) {
				rest := d[r.pos:]
				if startsWith(rest, f.FieldTerm) {
					r.pos += len(f.FieldTerm)
					break
				}
				if startsWith(rest, f.LineTerm) {
					r.pos += len(f.LineTerm)
					endLine = true
					break
				}
			}
			r.buf = append(r.buf, c)
			r.pos++
		}
		n := len(r.buf) - start
		null := n == 1 && foundNull ||
			!enclosed && f.HasEnclosed && n == 4 && string(r.buf[start:]) == "NULL"
		r.ends = append(r.ends, len(r.buf))
		r.nulls = append(r.nulls, null)
		if endLine {
			break
		}
	}
	r.fields = r.fields[:0]
	start := 0
	for _, e := range r.ends {
		r.fields = append(r.fields, r.buf[start:e:e])
		start = e
	}
	return true
}

func startsWith(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[:len(s)]) == s
}

// loadCond is a condition of a load, raised in row order after the rows
// are stored.
type loadCond struct {
	row   int
	level string
	err   *sqlError
}

// sqlError is a condition's number and message.
type sqlError struct {
	num     int
	message string
}

// LoadDataNode is a prepared bulk load: the file of one LOAD DATA for one
// version of one table, and the rows converted from it. It serves one
// execution on the session's goroutine and is not safe for concurrent
// use; the goroutine of one chunk's job (runJob) meanwhile reads that
// chunk's rows, which no longer change, and writes only its loadJob.
type LoadDataNode struct {
	bulkLeaf
	ignore  bool // duplicates skipped
	replace bool
	records int
	rows    []engine.Row
	rowLine []int // the line (row number of messages) of each row
	conds   []loadCond
	failure error // the statement's error, found converting
	// moreErrors are the failing row's errors after failure;
	// failedConverting is set when the statement fails with failure.
	moreErrors       []loadCond
	failedConverting bool
	conv             *loadConverter
	affected         int
	staged           int           // rows handed to the stage and dropped from rows (runStaged)
	src              io.ReadCloser // the file, until Close
}

var _ sql.ExecSourceRel = (*LoadDataNode)(nil)

// Rows returns the number of rows the node has converted.
func (n *LoadDataNode) Rows() int { return n.staged + len(n.rows) }

// Affected returns the statement's affected rows once it has run.
func (n *LoadDataNode) Affected() int { return n.affected }

// String names the node in plans and logs.
func (n *LoadDataNode) String() string {
	return fmt.Sprintf("BulkLoad(%s.%s, %d rows)", n.t.DB, n.t.Name, len(n.rows))
}

// WithChildren accepts no children.
func (n *LoadDataNode) WithChildren(children ...sql.Node) (sql.Node, error) {
	return leafWithChildren(n, children)
}

// loadInfo is the OK packet's info line.
type loadInfo string

func (s loadInfo) String() string { return string(s) }

// PrepareLoadData reads the file of ls for the session of ctx into a node
// to run (which converts it), or returns nil when the statement must take
// the ordinary path (see the file comment). For LOCAL, the client sends
// the file while it runs; a nil return comes before that.
func (p *Provider) PrepareLoadData(ctx *sql.Context, ls *LoadStatement) *LoadDataNode {
	// MariaDB reads the file in character_set_database.
	if ls == nil || !UTF8Variable(ctx, "character_set_database") {
		return nil
	}
	d, t := p.bulkTarget(ctx, ls.DB, ls.Table)
	if t == nil || len(ls.Columns) > len(t.Columns) {
		return nil
	}
	sess := SessionOf(ctx)
	m, err := p.tableMeta(t.ID)
	if err != nil || len(m.Checks) > 0 || len(m.JSON) > 0 || len(m.Generated) > 0 || (len(m.ForeignKeys) > 0 && fkChecks(ctx)) {
		return nil
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.AutoIncrement || c.DefaultCurrentTimestamp || c.Type.Kind == types.Geometry || c.Type.Kind == types.Timestamp {
			return nil
		}
	}
	var order []int
	seen := make([]bool, len(t.Columns))
	if ls.Columns == nil {
		order = make([]int, len(t.Columns))
		for j := range order {
			order[j] = j
		}
	} else {
		order = make([]int, len(ls.Columns))
		for j, name := range ls.Columns {
			c := t.Column(name)
			if c < 0 {
				for i := range t.Columns {
					if strings.EqualFold(t.Columns[i].Name, name) {
						c = i
						break
					}
				}
			}
			if c < 0 || seen[c] {
				return nil
			}
			seen[c] = true
			order[j] = c
		}
		for i := range t.Columns {
			if c := &t.Columns[i]; !seen[i] && c.Default == nil && !c.Nullable {
				// No default to store (1364): the ordinary path.
				return nil
			}
		}
	}
	if ls.Replace {
		if t.Primary.Hidden {
			return nil
		}
		for _, idx := range t.Indexes {
			if idx != t.Primary && idx.Unique {
				return nil
			}
		}
		if !loadAsJobs(ctx, sess) {
			return nil
		}
	}
	var src io.ReadCloser
	if ls.Local {
		if v, ok := GlobalInt("local_infile"); !ok || v == 0 {
			return nil
		}
		if src, err = ctx.LoadInfile(ls.File); err != nil {
			return &LoadDataNode{bulkLeaf: bulkLeaf{p: p, t: t}, failure: err}
		}
	} else {
		if !UnderSecureFilePriv(ls.File) {
			return nil
		}
		f, err := os.Open(ls.File)
		if err != nil {
			return nil
		}
		if st, err := f.Stat(); err != nil || st.IsDir() {
			f.Close()
			return nil
		}
		src = f
	}
	n := &LoadDataNode{bulkLeaf: bulkLeaf{p: p, t: t, sch: newTable(d, t).Schema()}, replace: ls.Replace, src: src}
	ignore := ls.Ignore || ls.Local && !ls.Replace
	n.ignore = ignore
	n.conv = n.newConverter(ctx, src, ls, order, seen, ignore)
	return n
}

// Close closes the node's file: a LOCAL file's rest is read from the
// client and dropped, which the client's connection needs before the
// statement answers. RowIter closes it once every line is read or the
// statement fails; the SQL front calls Close again (a no-op) after the
// statement, for a node that never ran.
func (n *LoadDataNode) Close() error {
	if n.src == nil {
		return nil
	}
	err := n.src.Close()
	n.src = nil
	return err
}

// loadConverter converts the lines of a load's file, a chunk at a time,
// on the statement's goroutine.
type loadConverter struct {
	ctx      *sql.Context
	ls       *LoadStatement
	order    []int
	listed   []bool
	strict   bool
	m        storeMode
	sqlTypes []sql.Type
	r        *loadReader
	vals     []types.Value
	line     int
	done     bool
}

func (n *LoadDataNode) newConverter(ctx *sql.Context, src io.Reader, ls *LoadStatement, order []int, listed []bool, ignore bool) *loadConverter {
	mode := sessionMode(ctx)
	cv := &loadConverter{ctx: ctx, ls: ls, order: order, listed: listed, strict: mode.strict && !ignore, m: mode,
		sqlTypes: n.p.ColumnTypes(n.t), r: newLoadReader(src, &ls.Format)}
	cv.m.strict = cv.strict
	for i := int64(0); i < ls.IgnoreLines && cv.r.next(); i++ {
	}
	return cv
}

// convertAll converts every line.
func (n *LoadDataNode) convertAll() {
	if n.conv != nil {
		for n.convert(math.MaxInt) {
		}
	}
}

// convert reads up to max more lines and converts them into n.rows,
// recording the conditions met, or the statement's error in n.failure;
// it returns false once every line is read or a line failed. A column
// the list leaves out (listed[c] false) gets its default.
func (n *LoadDataNode) convert(max int) bool {
	cv := n.conv
	if cv.done || n.failure != nil {
		return false
	}
	t := n.t
	ctx, ls, order, listed, strict, m, sqlTypes, r := cv.ctx, cv.ls, cv.order, cv.listed, cv.strict, cv.m, cv.sqlTypes, cv.r
	width := len(t.Columns)
	for k := 0; k < max; k++ {
		if !r.next() {
			cv.done = true
			if r.err != nil {
				n.failure = r.err
			}
			return false
		}
		cv.line++
		line := cv.line
		n.records++
		if len(cv.vals) < width {
			cv.vals = make([]types.Value, width*loadChunk)
		}
		row := cv.vals[:width:width]
		cv.vals = cv.vals[width:]
		if ls.Columns != nil {
			for c := range t.Columns {
				if !listed[c] {
					if d := t.Columns[c].Default; d != nil {
						row[c] = *d
					} else {
						row[c] = types.NullValue
					}
				}
			}
		}
		fieldsFailed := false
		for j, c := range order {
			col := &t.Columns[c]
			if j == len(r.fields) {
				fieldsFailed = n.failure != nil
			}
			if j >= len(r.fields) {
				// A short line: what MariaDB's reset() leaves (after an
				// error in a field, MariaDB raises no more).
				if fieldsFailed {
					break
				}
				n.cond(strict, line, "Warning", errtable.SQLError(errtable.ERWarnTooFewRecords, line))
				if col.Default == nil && col.Nullable {
					row[c] = types.NullValue
				} else {
					row[c] = typesImplicit(col)
				}
				continue
			}
			if r.nulls[j] {
				if col.Nullable {
					row[c] = types.NullValue
					continue
				}
				n.cond(strict, line, "Warning", errtable.SQLError(errtable.ERWarnNullToNotnull, col.Name, line))
				row[c] = typesImplicit(col)
				continue
			}
			text := string(r.fields[j])
			var in interface{} = text
			// Plain numbers are read without a text scan: what the
			// text's conversion gives (TestLoadDataVectors compares
			// them).
			switch {
			case col.Type.IsInteger():
				if i, ok := plainInt(r.fields[j]); ok {
					in = i
				}
			case col.Type.Kind == types.Decimal:
				if d, ok := plainDecimal(r.fields[j]); ok {
					in = d
				}
			}
			out, sc := storeConvert(ctx, &col.Type, in, m)
			if sc.code != 0 {
				if sc.code == mysql.ERDataTooLong && !strict {
					sc.code = mysql.ERWarnDataTruncated
				}
				e := loadCondError(t, c, sc, text, line)
				level := "Warning"
				if sc.note {
					level = "Note"
				}
				n.cond((strict || sc.always) && !sc.note, line, level, e)
				if n.failure != nil {
					continue
				}
			}
			if n.failure != nil {
				continue
			}
			if out == nil {
				n.failure = fmt.Errorf("sqlbackend: LOAD DATA: no value for column %s at row %d", col.Name, line)
				return false
			}
			conv, _, err := sqlTypes[c].Convert(ctx, out)
			if err != nil {
				n.failure = err
				return false
			}
			v, err := valueFromSQL(ctx, &col.Type, conv, false)
			if err != nil {
				n.failure = err
				return false
			}
			row[c] = v
		}
		if len(r.fields) > len(order) && n.failure == nil {
			n.cond(strict, line, "Warning", errtable.SQLError(errtable.ERWarnTooManyRecords, line))
		}
		if n.failure != nil {
			// MariaDB raises every condition of the failing row.
			return false
		}
		n.rows = append(n.rows, row)
		n.rowLine = append(n.rowLine, line)
	}
	return true
}

// cond records condition e of line. When it is an error (fail), the
// first is the statement's error and the next (of the same row) are
// listed after it.
func (n *LoadDataNode) cond(fail bool, line int, level string, e error) {
	if fail && n.failure == nil {
		n.failure = e
		return
	}
	se := sql.CastSQLError(e)
	c := loadCond{row: line, level: level, err: &sqlError{num: se.Num, message: se.Message}}
	if fail || n.failure != nil {
		c.level = "Error"
		n.moreErrors = append(n.moreErrors, c)
		return
	}
	n.conds = append(n.conds, c)
}

// MoreErrors returns the errors the failing row raised after the
// statement's error, which SHOW WARNINGS lists after it, when the
// statement failed with that error.
func (n *LoadDataNode) MoreErrors() []*sql.Warning {
	if !n.failedConverting {
		return nil
	}
	var out []*sql.Warning
	for _, c := range n.moreErrors {
		out = append(out, &sql.Warning{Level: c.level, Code: c.err.num, Message: c.err.message})
	}
	return out
}

// plainInt reads b when it is an optional minus sign and 1 to 18
// digits.
func plainInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var i int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int64(c-'0')
	}
	if neg {
		i = -i
	}
	return i, true
}

// plainDecimal reads b when it is an optional minus sign, digits and
// optionally a point and more digits, 18 digits at most.
func plainDecimal(b []byte) (decimal.Decimal, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var i int64
	digits, frac := 0, -1
	for k, c := range b {
		switch {
		case c >= '0' && c <= '9':
			i = i*10 + int64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0 && k > 0 && k < len(b)-1:
			frac = 0
		default:
			return decimal.Decimal{}, false
		}
	}
	if digits == 0 || digits > 18 {
		return decimal.Decimal{}, false
	}
	if neg {
		i = -i
	}
	return decimal.New(i, -int32(max(frac, 0))), true
}

// typesImplicit is the implicit default of col (0, ”, the zero date).
func typesImplicit(col *types.Column) types.Value {
	return types.ImplicitDefault(&col.Type)
}

// loadCondError is the MySQL error of condition sc storing text into
// column c at row line (storeValue.condError's wording).
func loadCondError(t *engine.Table, c int, sc storeCond, text string, line int) error {
	col := &t.Columns[c]
	switch sc.code {
	case mysql.ERTruncatedWrongValueForField, mysql.ERTruncatedWrongValue:
		if sc.text != "" {
			text = sc.text
		}
		return errtable.SQLError(sc.code, sc.word, text, t.DB, t.Name, col.Name, line)
	}
	return errtable.SQLError(sc.code, col.Name, line)
}

// UTF8Variable reports whether the session's character set variable name
// (character_set_client, character_set_database...) is utf8mb4 or
// utf8mb3, the text the bulk paths read.
func UTF8Variable(ctx *sql.Context, name string) bool {
	v, err := ctx.GetSessionVariable(ctx, name)
	if err != nil {
		return false
	}
	cs, _ := v.(string)
	switch strings.ToLower(cs) {
	case "utf8mb4", "utf8mb3", "utf8":
		return true
	}
	return false
}

// underSecureFilePriv reports whether file lies in the secure_file_priv
// directory (which HandlerDB always sets), symbolic links resolved.
func UnderSecureFilePriv(file string) bool {
	_, v, ok := sql.SystemVariables.GetGlobal("secure_file_priv")
	dir, _ := v.(string)
	if !ok || dir == "" {
		return false
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	f, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	if f, err = filepath.EvalSymlinks(f); err != nil {
		return false
	}
	rel, err := filepath.Rel(d, f)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// loadAsJobs reports whether the statement stores its rows as writer jobs
// (autocommit, nothing of the session pending) rather than into the
// session's transaction.
func loadAsJobs(ctx *sql.Context, sess *Session) bool {
	auto, err := plan.IsSessionAutocommit(ctx)
	return err == nil && auto && !ctx.GetIgnoreAutoCommit() && !sess.HasEngineTxn()
}

// RowIter stores the rows and returns the statement's OK result.
func (n *LoadDataNode) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	sess := SessionOf(ctx)
	if sess == nil {
		return nil, fmt.Errorf("sqlbackend: LOAD DATA without a HandlerDB session")
	}
	sess.autoIncAsked = 0
	defer n.Close()
	tx, _ := sess.GetTransaction().(*transaction)
	if tx != nil && tx.readOnly {
		return nil, sql.ErrReadOnlyTransaction.New()
	}
	if n.conv == nil { // the file could not be had
		n.failedConverting = true
		return nil, n.failure
	}
	if loadAsJobs(ctx, sess) && !n.p.logged() {
		// (with a binary log, a load goes through the session's
		// transaction instead, whose rows the log gets: a staged job's
		// ingested rows are not in it)
		return n.runStaged(ctx)
	}
	n.convertAll()
	if n.failure != nil {
		// MariaDB stores the rows before the failing line first: a
		// duplicate key among them is the statement's error.
		if !n.ignore && len(n.rows) > 0 {
			if at, err := n.probe(sess); err != nil {
				n.raise(ctx, condsTo(n.conds, n.rowLine[at]))
				return nil, err
			}
		}
		n.raise(ctx, n.conds)
		n.failedConverting = true
		return nil, n.failure
	}
	res, at, err := n.writeTxn(sess)
	if err != nil {
		conds := n.conds
		if at >= 0 {
			conds = condsTo(conds, n.rowLine[at])
		}
		n.raise(ctx, conds)
		return nil, err
	}
	return n.ok(ctx, res), nil
}

// ok raises the statement's conditions and returns its OK result.
func (n *LoadDataNode) ok(ctx *sql.Context, res writeResult) sql.RowIter {
	conds := mergeConds(n.conds, res.dups)
	n.raise(ctx, conds)
	n.affected = res.inserted + res.deleted
	ctx.SetLastQueryInfoInt(sql.RowCount, int64(n.affected))
	info := loadInfo(fmt.Sprintf("Records: %d  Deleted: %d  Skipped: %d  Warnings: %d", n.records, res.deleted, res.skipped, len(conds)))
	ok := gtypes.OkResult{RowsAffected: uint64(n.affected), Info: info}
	return sql.RowsToRowIter(sql.NewRow(ok))
}

// runStaged converts the rows a chunk at a time and writes each chunk
// into one staged job (engine.BeginStage with NewKeys), whose Commit
// ingests every row at once (under autocommit): a crash or a failure
// before the commit leaves the table as it was, and memory holds one
// window of the file, one chunk of converted rows and the stage's
// buffers, not the load's rows. A duplicate key fails a plain load
// (nothing stored) and is skipped with a warning with IGNORE; a line
// that fails to convert fails the statement after the duplicates before
// it. Row locks: a plain or IGNORE stage only inserts new rows (a row an
// SQL transaction holds exists, so its key is a duplicate). REPLACE
// takes each row it replaces exclusively, waiting as InnoDB's REPLACE
// waits (innodb_lock_wait_timeout, 1205; a deadlock is 1213), before it
// reads it, and holds it until the statement ends: nothing else changes
// a replaced row meanwhile, and Commit's check (StageOptions.Owner)
// accepts those keys. The commit fails with 1412 instead of overwriting
// a new key another session wrote since the stage looked.
func (n *LoadDataNode) runStaged(ctx *sql.Context) (sql.RowIter, error) {
	opts := engine.StageOptions{NewKeys: true, CacheBytes: 32 << 20}
	var timeout time.Duration
	if n.replace {
		opts.Owner = n.p.e.Locks().NewLocker()
		defer opts.Owner.ReleaseAll()
		timeout = 50 * time.Second
		if s := SessionOf(ctx); s != nil {
			timeout = s.lockTimeout(ctx)
		}
	}
	st, err := n.p.e.BeginStage(ctx, opts)
	if err != nil {
		return nil, MapError(err)
	}
	defer st.Abort()
	if cur, err := st.Catalog().Table(n.t.DB, n.t.Name); err != nil || cur != n.t {
		return nil, MapError(&engine.Error{Kind: engine.ErrTableDefChanged, DB: n.t.DB, Table: n.t.Name, Detail: n.t.DB + "." + n.t.Name})
	}
	var total writeResult
	for {
		more := n.convert(loadChunk)
		for i, r := range n.rows {
			err := n.stageRow(ctx, st, opts.Owner, timeout, r, &total)
			if err == nil {
				continue
			}
			var dk *engine.DuplicateKeyError
			if n.ignore && errors.As(err, &dk) {
				total.skipped++
				total.dups = append(total.dups, loadCond{row: n.rowLine[i], level: "Warning", err: &sqlError{num: mysql.ERDupEntry, message: dupKeyMessage(n.t, dk)}})
				continue
			}
			n.raise(ctx, condsTo(n.conds, n.rowLine[i]))
			if errors.Is(err, engine.ErrLockWaitTimeout) || errors.Is(err, engine.ErrDeadlock) {
				return nil, MapError(err)
			}
			return nil, n.insertError(i, err)
		}
		n.staged += len(n.rows)
		clear(n.rows)
		n.rows, n.rowLine = n.rows[:0], n.rowLine[:0]
		if n.failure != nil {
			n.raise(ctx, n.conds)
			n.failedConverting = true
			return nil, n.failure
		}
		if !more {
			break
		}
	}
	if err := st.Commit(ctx); err != nil {
		n.raise(ctx, n.conds)
		return nil, MapError(err)
	}
	return n.ok(ctx, total), nil
}

// stageRow writes row into the stage: an insert, or for REPLACE over a
// row with its primary key, the row's replacement once owner holds it
// (MariaDB counts a replaced row twice, an identical one once).
func (n *LoadDataNode) stageRow(ctx *sql.Context, st *engine.Stage, owner *engine.Locker, timeout time.Duration, row engine.Row, res *writeResult) error {
	for {
		_, err := st.Insert(n.t, row)
		var dk *engine.DuplicateKeyError
		if err == nil || !n.replace || !errors.As(err, &dk) || dk.Index != "PRIMARY" {
			if err == nil {
				res.inserted++
			}
			return err
		}
		fresh, err := owner.Lock(ctx, n.t, engine.LockKey(nil, n.t, row), true, timeout)
		if err != nil {
			return err
		}
		if fresh {
			continue // read the row again, now that it is held
		}
		res.inserted++
		if dk.Existing != nil && sameRow(dk.Existing, row) {
			return nil
		}
		if _, err := st.Update(n.t, row, row); err != nil {
			return err
		}
		res.deleted++
		return nil
	}
}

// raise adds the conditions to the session's warnings, in order.
func (n *LoadDataNode) raise(ctx *sql.Context, conds []loadCond) {
	if ctx.Session == nil {
		return
	}
	for _, c := range conds {
		ctx.Session.Warn(&sql.Warning{Level: c.level, Code: c.err.num, Message: c.err.message})
	}
}

// mergeConds puts the duplicates' warnings among the conversion's, by
// row (a row's conversion conditions first), both lists being in row
// order.
func mergeConds(conv, dups []loadCond) []loadCond {
	if len(dups) == 0 {
		return conv
	}
	out := make([]loadCond, 0, len(conv)+len(dups))
	i := 0
	for _, d := range dups {
		for i < len(conv) && conv[i].row <= d.row {
			out = append(out, conv[i])
			i++
		}
		out = append(out, d)
	}
	return append(out, conv[i:]...)
}

// writeResult counts what the writes did.
type writeResult struct {
	inserted, deleted, skipped int
	dups                       []loadCond
}

// probe stores the converted rows, which precede a failing line, after
// a savepoint of the transaction, rolled back to, and returns the
// statement's error for a duplicate key among them, with the row's
// index.
func (n *LoadDataNode) probe(sess *Session) (int, error) {
	x, err := sess.writeTxn()
	if err != nil {
		return 0, nil
	}
	sp := x.Savepoint()
	defer sess.rollbackTo(sp)
	var res writeResult
	for i, r := range n.rows {
		if err := n.writeRow(x, r, &res); err != nil {
			return i, n.insertError(i, err)
		}
	}
	return 0, nil
}

// insertError is the statement's error for the failed insert of row i.
func (n *LoadDataNode) insertError(i int, err error) error {
	var dk *engine.DuplicateKeyError
	if !errors.As(err, &dk) {
		return MapError(err)
	}
	return sql.NewWrappedInsertError(rowToSQL(n.t, n.sch, n.rows[i]), dupKeyError(n.t, n.sch, err))
}

// condsTo returns the conditions of rows up to line.
func condsTo(conds []loadCond, line int) []loadCond {
	for i, c := range conds {
		if c.row > line {
			return conds[:i]
		}
	}
	return conds
}

// writeTxn stores the rows into the session's transaction, after a
// savepoint rolled back to on error.
func (n *LoadDataNode) writeTxn(sess *Session) (writeResult, int, error) {
	var res writeResult
	x, err := sess.writeTxn()
	if err != nil {
		return res, -1, sql.NewWrappedInsertError(nil, err)
	}
	sp := x.Savepoint()
	for i, r := range n.rows {
		if err := n.writeRow(x, r, &res); err != nil {
			var dk *engine.DuplicateKeyError
			if n.ignore && errors.As(err, &dk) {
				res.skipped++
				res.dups = append(res.dups, loadCond{row: n.rowLine[i], level: "Warning", err: &sqlError{num: mysql.ERDupEntry, message: dupKeyMessage(n.t, dk)}})
				continue
			}
			sess.rollbackTo(sp)
			return writeResult{}, i, n.insertError(i, err)
		}
	}
	return res, -1, nil
}

// writeRow inserts row in the transaction; with REPLACE, a row it
// duplicates is replaced as MariaDB does: one with its primary key is
// changed into it (counted twice, once when identical), one with another
// unique key is deleted first.
func (n *LoadDataNode) writeRow(x *engine.Txn, row engine.Row, res *writeResult) error {
	for {
		_, err := x.Insert(n.t, row)
		var dk *engine.DuplicateKeyError
		if err == nil || !n.replace || !errors.As(err, &dk) || dk.Existing == nil {
			if err == nil {
				res.inserted++
			}
			return err
		}
		if dk.Index == "PRIMARY" {
			res.inserted++
			if sameRow(dk.Existing, row) {
				return nil
			}
			if _, err := x.Update(n.t, dk.Existing, row); err != nil {
				return err
			}
			res.deleted++
			return nil
		}
		if _, err := x.Delete(n.t, dk.Existing); err != nil {
			return err
		}
		res.deleted++
	}
}

// sameRow reports whether two rows hold the same bytes.
func sameRow(a, b engine.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Null != y.Null || x.I != y.I || x.F != y.F || string(x.B) != string(y.B) {
			return false
		}
	}
	return true
}
