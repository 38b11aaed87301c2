package sqlbackend

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Prefix indexes (KEY (col(10))) follow MariaDB's InnoDB: a prefix is in
// characters of the column's character set (bytes for binary types), only
// string and binary columns take one (1089), never longer than a CHAR,
// VARCHAR, BINARY or VARBINARY column (1089), and one as long as the
// column is none. A key part holds at most 3072 bytes (characters times
// the character set's longest character): a longer part of a non-unique
// index is cut to that with a note (1071), of a primary key it is error
// 1071; so is a primary or non-unique key over 3072 bytes in all. A
// unique key is not limited (MariaDB makes a long one a hash key; the
// engine indexes the whole value, which enforces the same uniqueness).
//
// go-mysql-server checks prefixes itself, as MySQL 8 does with four bytes
// a character whatever the character set (so a latin1 VARCHAR(1000) could
// not have a 300-character prefix). HandlerDB replaces the two analyzer
// rules that check them by wrappers (prefixCreateTableRule,
// prefixAlterRule) that check prefixes as above and run go-mysql-server's
// rule on the statement with its prefixes hidden.
//
// Concurrency: the functions are pure and safe for concurrent use; the
// rules change only the plan nodes of the statement being analysed (its
// index definitions, hidden for the call and given back), on the
// goroutine that analyses it; the exec nodes serve one statement.

// maxKeyBytes is InnoDB's longest key and key part (DYNAMIC rows).
const maxKeyBytes = 3072

// mysql.ERTooLongKey is ER_TOO_LONG_KEY, the note of a key part MariaDB cuts.
// The errors are go-mysql-server's kinds (ErrInvalidIndexPrefix,
// ErrKeyTooLong), which the listener sends as MariaDB's 1089 and 1071.

// mbMax is the longest character of t's character set, in bytes.
func mbMax(t *types.Type) int {
	if t.Collation == nil {
		return 1
	}
	return t.Collation.MaxCharLen()
}

// keyBytes is how many bytes MariaDB counts for a whole value of t in a
// key (0 for TEXT and BLOB, which need a prefix).
func keyBytes(t *types.Type) int {
	frac := func() int { return (int(t.Scale) + 1) / 2 }
	switch t.Kind {
	case types.TinyInt, types.Year:
		return 1
	case types.SmallInt:
		return 2
	case types.MediumInt, types.Date:
		return 3
	case types.Int, types.Float:
		return 4
	case types.BigInt, types.Double:
		return 8
	case types.Decimal:
		digits := func(n int) int { return n/9*4 + [...]int{0, 1, 1, 2, 2, 3, 3, 4, 4}[n%9] }
		return digits(int(t.Length)-int(t.Scale)) + digits(int(t.Scale))
	case types.DateTime:
		return 5 + frac()
	case types.Timestamp:
		return 4 + frac()
	case types.Time:
		return 3 + frac()
	case types.Bit:
		return (int(t.Length) + 7) / 8
	case types.Enum:
		if len(t.Elems) > 255 {
			return 2
		}
		return 1
	case types.Set:
		n := (len(t.Elems) + 7) / 8
		if n > 4 {
			return 8
		}
		return n
	case types.Char, types.VarChar:
		return int(t.Length) * mbMax(t)
	case types.Binary, types.VarBinary:
		return int(t.Length)
	}
	return 0
}

// keyPrefix checks the prefix lengths of an index's parts (cols[i] is the
// column of part i) as MariaDB does and returns the engine's prefix per
// part (nil for none). warn, when set, receives the note of a part
// MariaDB cuts.
func keyPrefix(cols []*types.Column, parts []sql.IndexColumn, primary, unique bool, warn func(code int, msg string)) ([]uint16, error) {
	out := make([]uint16, len(parts))
	anyPrefix := false
	total := 0
	for i, p := range parts {
		t := &cols[i].Type
		n := p.Length
		switch t.Kind {
		case types.Char, types.VarChar, types.Binary, types.VarBinary:
			if n > int64(t.Length) {
				return nil, sql.ErrInvalidIndexPrefix.New(cols[i].Name)
			}
			if n == int64(t.Length) {
				n = 0
			}
		case types.Text, types.Blob, types.Geometry:
		default:
			if n > 0 {
				return nil, sql.ErrInvalidIndexPrefix.New(cols[i].Name)
			}
		}
		bytes := keyBytes(t)
		if n > 0 {
			bytes = int(n) * mbMax(t)
			if t.Kind == types.Binary || t.Kind == types.VarBinary || t.Kind == types.Blob || t.Kind == types.Geometry {
				bytes = int(n)
			}
		}
		if bytes > maxKeyBytes && (primary || !unique) {
			if primary || t.Class() != types.ClassBytes || t.Kind == types.Decimal {
				return nil, sql.ErrKeyTooLong.New()
			}
			n = int64(maxKeyBytes / mbMax(t))
			bytes = int(n) * mbMax(t)
			if warn != nil {
				warn(mysql.ERTooLongKey, errtable.SQLError(mysql.ERTooLongKey, maxKeyBytes).Message)
			}
		}
		total += bytes
		if n > 0 {
			if n > 65535 {
				return nil, sql.ErrKeyTooLong.New()
			}
			out[i], anyPrefix = uint16(n), true
		}
	}
	if total > maxKeyBytes && (primary || !unique) {
		return nil, sql.ErrKeyTooLong.New()
	}
	if !anyPrefix {
		return nil, nil
	}
	return out, nil
}

// tableKeyPrefix is keyPrefix for an index of table t (columns found by
// name, case-insensitively; an unknown one is left to the caller).
func tableKeyPrefix(ctx *sql.Context, cols []types.Column, parts []sql.IndexColumn, primary, unique bool) ([]uint16, error) {
	pc := make([]*types.Column, len(parts))
	for i, p := range parts {
		for j := range cols {
			if strings.EqualFold(cols[j].Name, p.Name) {
				pc[i] = &cols[j]
			}
		}
		if pc[i] == nil {
			return nil, sql.ErrKeyColumnDoesNotExist.New(p.Name)
		}
	}
	var warn func(int, string)
	if ctx != nil && ctx.Session != nil {
		// A note, as MariaDB gives it (ctx.Warn would make it a warning).
		warn = func(code int, msg string) { ctx.Session.Warn(&sql.Warning{Level: "Note", Code: code, Message: msg}) }
	}
	return keyPrefix(pc, parts, primary, unique, warn)
}

// hidePrefixes returns parts with every prefix length go-mysql-server
// would check replaced by one it accepts: none for the types that take
// none, 1 for TEXT and BLOB, which need one.
func hidePrefixes(parts []sql.IndexColumn, typeOf func(name string) sql.Type) []sql.IndexColumn {
	out := make([]sql.IndexColumn, len(parts))
	copy(out, parts)
	for i := range out {
		if out[i].Length == 0 {
			continue
		}
		out[i].Length = 0
		if st := typeOf(out[i].Name); st != nil {
			if et, err := engineType(st); err == nil && et.IsBlob() && et.Kind != types.Geometry {
				out[i].Length = 1
			}
		}
	}
	return out
}

func schemaType(sch sql.Schema) func(string) sql.Type {
	return func(name string) sql.Type {
		for _, c := range sch {
			if strings.EqualFold(c.Name, name) {
				return c.Type
			}
		}
		return nil
	}
}

// gmsRule returns go-mysql-server's once-before rule id.
func gmsRule(id analyzer.RuleId) analyzer.RuleFunc {
	for _, r := range analyzer.OnceBeforeDefault {
		if r.Id == id {
			return r.Apply
		}
	}
	panic("sqlbackend: go-mysql-server has no rule " + id.String())
}

var (
	gmsValidateCreateTable = gmsRule(analyzer.ValidateCreateTableId)
	gmsResolveAlterColumn  = gmsRule(analyzer.ResolveAlterColumnId)
)

// createTableColumns returns the engine columns a CREATE TABLE will give
// its table, for checking prefixes: each string column in the collation
// it names, else the table's, else the database's.
func createTableColumns(ctx *sql.Context, ct *plan.CreateTable) ([]types.Column, error) {
	coll := ct.Collation
	if coll == sql.Collation_Unspecified {
		coll = plan.GetDatabaseCollation(ctx, ct.Db)
	}
	var cols []types.Column
	for _, c := range ct.PkSchema().Schema {
		st := c.Type
		if ctt, ok := st.(sql.TypeWithCollation); ok && ctt.Collation() == sql.Collation_Unspecified && coll != sql.Collation_Unspecified {
			if nt, err := ctt.WithNewCollation(coll); err == nil {
				st = nt
			}
		}
		t, err := engineType(st)
		if err != nil {
			return nil, err
		}
		cols = append(cols, types.Column{Name: c.Name, Type: t})
	}
	return cols, nil
}

// prefixCreateTableRule stands for go-mysql-server's validateCreateTable:
// it checks the prefixes of a CREATE TABLE's indexes (before anything is
// created, as MariaDB refuses the whole statement), then runs the rule
// with the prefixes hidden from it.
func PrefixCreateTableRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	ct, ok := n.(*plan.CreateTable)
	if !ok || ct.Like() != nil {
		return gmsValidateCreateTable(ctx, a, n, scope, sel, qf)
	}
	likePrefixes(ctx, ct)
	idxs := ct.Indexes()
	saved := make([][]sql.IndexColumn, len(idxs))
	hidden := false
	// Every key is checked here, with or without a prefix: one refused
	// when go-mysql-server adds it (after creating the table) would leave
	// the table behind. Columns of a type the engine lacks fail later.
	cols, colsErr := createTableColumns(ctx, ct)
	for i, d := range idxs {
		saved[i] = d.Columns
		if d.IsFullText() || d.IsSpatial() || d.IsVector() {
			continue
		}
		if colsErr == nil {
			if _, err := tableKeyPrefix(nil, cols, d.Columns, d.IsPrimary(), d.IsUnique()); err != nil {
				return nil, transform.SameTree, err
			}
		}
		if hasPrefix(d.Columns) {
			d.Columns = hidePrefixes(d.Columns, schemaType(ct.PkSchema().Schema))
			hidden = true
		}
	}
	if !hidden {
		return gmsValidateCreateTable(ctx, a, n, scope, sel, qf)
	}
	// The index definitions are this statement's own: hidden only for
	// the call, on this goroutine.
	defer func() {
		for i, d := range idxs {
			d.Columns = saved[i]
		}
	}()
	return gmsValidateCreateTable(ctx, a, n, scope, sel, qf)
}

// likePrefixes gives the indexes of a CREATE TABLE ... LIKE src the
// prefix lengths of src's: go-mysql-server copies src's indexes by their
// column names only (and a TEXT or BLOB column then has no length), and
// keeps no link to src in the plan, so the statement's text names it.
func likePrefixes(ctx *sql.Context, ct *plan.CreateTable) {
	_, src := likeSource(ctx, ct)
	if src == nil {
		return
	}
	for _, def := range ct.Indexes() {
		idx := src.IndexFold(def.Name)
		if idx == nil || len(idx.Prefix) != len(def.Columns) {
			continue
		}
		cols := append([]sql.IndexColumn(nil), def.Columns...)
		for i := range cols {
			cols[i].Length = int64(idx.Prefix[i])
		}
		def.Columns = cols
	}
}

func hasPrefix(parts []sql.IndexColumn) bool {
	for _, p := range parts {
		if p.Length > 0 {
			return true
		}
	}
	return false
}

// prefixAlterRule stands for go-mysql-server's resolveAlterColumn: it runs
// the rule with the prefixes of ADD INDEX, CREATE INDEX and ADD PRIMARY
// KEY hidden, and gives them back in the plan it returns. The backend
// checks them when it runs the statement (CreateIndex,
// CreatePrimaryKey).
func PrefixAlterRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !hasAlterIndexOrPK(n) {
		return gmsResolveAlterColumn(ctx, a, n, scope, sel, qf)
	}
	type hiddenCols struct{ shown, hidden []sql.IndexColumn }
	var hid []hiddenCols
	swap := func(n sql.Node, back bool) {
		var cols *[]sql.IndexColumn
		var sch sql.Schema
		switch x := n.(type) {
		case *plan.AlterIndex:
			cols = &x.Columns
			sch = x.Table.Schema()
		case *plan.AlterPK:
			cols = &x.Columns
			sch = x.Table.Schema()
		default:
			return
		}
		if back {
			for _, h := range hid {
				if len(*cols) > 0 && len(h.hidden) > 0 && &(*cols)[0] == &h.hidden[0] {
					*cols = h.shown
				}
			}
			return
		}
		if hasPrefix(*cols) {
			h := hiddenCols{shown: *cols, hidden: hidePrefixes(*cols, schemaType(sch))}
			hid = append(hid, h)
			*cols = h.hidden
		}
	}
	transform.Inspect(n, func(c sql.Node) bool { swap(c, false); return true })
	if len(hid) == 0 {
		return gmsResolveAlterColumn(ctx, a, n, scope, sel, qf)
	}
	out, same, err := gmsResolveAlterColumn(ctx, a, n, scope, sel, qf)
	transform.Inspect(n, func(c sql.Node) bool { swap(c, true); return true })
	if out != nil {
		transform.Inspect(out, func(c sql.Node) bool { swap(c, true); return true })
	}
	return out, same, err
}

// hasAlterIndexOrPK reports whether n or a node under it is an ALTER of
// an index or of the primary key (a plain walk, no closure).
func hasAlterIndexOrPK(n sql.Node) bool {
	switch n.(type) {
	case nil:
		return false
	case *plan.AlterIndex, *plan.AlterPK:
		return true
	}
	for _, c := range n.Children() {
		if hasAlterIndexOrPK(c) {
			return true
		}
	}
	return false
}

// pkPrefixKey is the context key under which a CREATE TABLE passes its
// primary key's parts (with their prefix lengths) to database.CreateTable,
// which go-mysql-server calls with the columns only.
type pkPrefixKey struct{}

// primaryKeyParts returns the primary key parts a CREATE TABLE passed
// through ctx, or nil.
func primaryKeyParts(ctx *sql.Context) []sql.IndexColumn {
	if ctx == nil {
		return nil
	}
	parts, _ := ctx.Value(pkPrefixKey{}).([]sql.IndexColumn)
	return parts
}

// pkPrefixRule puts a CREATE TABLE whose primary key has a prefix under a
// pkPrefixCreate.
func PKPrefixRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if _, ok := n.(*pkPrefixCreate); ok {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ct, ok := n.(*plan.CreateTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		for _, d := range ct.Indexes() {
			if d.IsPrimary() && hasPrefix(d.Columns) {
				return &pkPrefixCreate{Wrapper: Wrapper{ct}, parts: d.Columns}, transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// pkPrefixCreate runs its child, a CREATE TABLE (possibly under another
// node), with the primary key parts in the context.
type pkPrefixCreate struct {
	Wrapper
	parts []sql.IndexColumn
}

var _ sql.ExecSourceRel = (*pkPrefixCreate)(nil)

func (c *pkPrefixCreate) IsReadOnly() bool { return false }

// WithChildren replaces the child.
func (c *pkPrefixCreate) WithChildren(children ...sql.Node) (sql.Node, error) {
	return Rewrap(c, children, func(w Wrapper) sql.Node { return &pkPrefixCreate{Wrapper: w, parts: c.parts} })
}

// RowIter runs the child with the parts in the context.
func (c *pkPrefixCreate) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	return rowexec.DefaultBuilder.Build(ctx.WithContext(context.WithValue(ctx.Context, pkPrefixKey{}, c.parts)), c.Child, row)
}

// showCreatePKRule: go-mysql-server prints the primary key of SHOW CREATE
// TABLE from its column names only, so the rule puts a SHOW CREATE TABLE
// of a table whose primary key has a prefix under a pkShowCreate, which
// adds the lengths.
func ShowCreatePKRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sc, ok := n.(*plan.ShowCreateTable)
		if !ok || sc.IsView {
			return n, transform.SameTree, nil
		}
		rt, ok := sc.Child.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		t, ok := rt.UnderlyingTable().(*table)
		if !ok || t.t.Primary.Hidden || t.t.Primary.Prefix == nil {
			return n, transform.SameTree, nil
		}
		return &pkShowCreate{Wrapper: Wrapper{sc}, t: t.t}, transform.NewTree, nil
	})
}

// pkShowCreate runs a SHOW CREATE TABLE and writes the prefix lengths of
// t's primary key into its PRIMARY KEY line.
type pkShowCreate struct {
	Wrapper
	t *engine.Table
}

var _ sql.ExecSourceRel = (*pkShowCreate)(nil)

func (c *pkShowCreate) IsReadOnly() bool { return true }

// WithChildren replaces the child.
func (c *pkShowCreate) WithChildren(children ...sql.Node) (sql.Node, error) {
	return Rewrap(c, children, func(w Wrapper) sql.Node { return &pkShowCreate{Wrapper: w, t: c.t} })
}

// RowIter runs the child and rewrites the statement it prints.
func (c *pkShowCreate) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, c.Child, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	pk := c.t.Primary
	var names []string
	for _, col := range pk.Columns {
		names = append(names, c.t.Columns[col].Name)
	}
	old := sql.GenerateCreateTablePrimaryKeyDefinition(names)
	var b strings.Builder
	rest := old
	for i, name := range names {
		q := sql.QuoteIdentifier(name)
		j := strings.Index(rest, q)
		if j < 0 {
			return sql.RowsToRowIter(rows...), nil // a printer we do not know
		}
		b.WriteString(rest[:j+len(q)])
		rest = rest[j+len(q):]
		if pk.Prefix[i] > 0 {
			b.WriteString("(" + strconv.Itoa(int(pk.Prefix[i])) + ")")
		}
	}
	b.WriteString(rest)
	for _, r := range rows {
		if len(r) > 1 {
			if s, ok := r[1].(string); ok {
				r[1] = strings.Replace(s, old+"\n", b.String()+"\n", 1)
				r[1] = strings.Replace(r[1].(string), old+",\n", b.String()+",\n", 1)
			}
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// showIndexPrefixRule: go-mysql-server's SHOW INDEX leaves Sub_part NULL;
// the rule puts a SHOW INDEX of a table with a prefix index under a
// subPartShowIndex, which fills it in.
func ShowIndexPrefixRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		si, ok := n.(*plan.ShowIndexes)
		if !ok {
			return n, transform.SameTree, nil
		}
		rt, ok := si.Child.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		t, ok := rt.UnderlyingTable().(*table)
		if !ok {
			return n, transform.SameTree, nil
		}
		for _, idx := range t.t.Indexes {
			if idx.Prefix != nil {
				return &subPartShowIndex{Wrapper: Wrapper{si}, t: t.t}, transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// subPartShowIndex runs a SHOW INDEX and sets each row's Sub_part from
// t's prefix lengths.
type subPartShowIndex struct {
	Wrapper
	t *engine.Table
}

var _ sql.ExecSourceRel = (*subPartShowIndex)(nil)

func (c *subPartShowIndex) IsReadOnly() bool { return true }

// WithChildren replaces the child.
func (c *subPartShowIndex) WithChildren(children ...sql.Node) (sql.Node, error) {
	return Rewrap(c, children, func(w Wrapper) sql.Node { return &subPartShowIndex{Wrapper: w, t: c.t} })
}

// SHOW INDEX's columns: Key_name, Seq_in_index (from 1) and Sub_part.
const (
	showIndexKeyName = 2
	showIndexSeq     = 3
	showIndexSubPart = 7
)

// RowIter runs the child and fills in Sub_part.
func (c *subPartShowIndex) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, c.Child, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if len(r) <= showIndexSubPart {
			continue
		}
		name, _ := r[showIndexKeyName].(string)
		idx := c.t.Index(name)
		seq, err := strconv.Atoi(fmt.Sprint(r[showIndexSeq]))
		if idx == nil || err != nil || seq < 1 || seq > len(idx.Prefix) || idx.Prefix[seq-1] == 0 {
			continue
		}
		r[showIndexSubPart] = int64(idx.Prefix[seq-1])
	}
	return sql.RowsToRowIter(rows...), nil
}

// statisticsSubPartRule: go-mysql-server's information_schema.STATISTICS
// reads SUB_PART from PrefixLengths, where 0 stands for a whole value, and
// shows that 0 for a whole-value column before a prefix column (v2 of
// KEY (v2, v1(300))); MariaDB shows NULL. No prefix is 0 long, so the
// rule reads the table through statisticsTable, which turns a SUB_PART of
// 0 into NULL.
func StatisticsSubPartRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		rt, ok := n.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		if _, done := rt.Table.(statisticsTable); done || rt.Database() == nil ||
			!strings.EqualFold(rt.Database().Name(), sql.InformationSchemaDatabaseName) ||
			!strings.EqualFold(rt.Table.Name(), information_schema.StatisticsTableName) {
			return n, transform.SameTree, nil
		}
		col := rt.Table.Schema().IndexOfColName("SUB_PART")
		if col < 0 {
			return n, transform.SameTree, nil
		}
		nt, err := rt.WithTable(statisticsTable{Table: rt.Table, subPart: col})
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nt, transform.NewTree, nil
	})
}

// statisticsTable is information_schema.STATISTICS with a SUB_PART of 0
// read as NULL. It serves one statement.
type statisticsTable struct {
	sql.Table
	subPart int
}

// PartitionRows returns the partition's rows, SUB_PART fixed.
func (s statisticsTable) PartitionRows(ctx *sql.Context, p sql.Partition) (sql.RowIter, error) {
	it, err := s.Table.PartitionRows(ctx, p)
	if err != nil {
		return nil, err
	}
	return &subPartIter{RowIter: it, col: s.subPart}, nil
}

type subPartIter struct {
	sql.RowIter
	col int
}

// Next returns the next row with a SUB_PART of 0 as NULL.
func (i *subPartIter) Next(ctx *sql.Context) (sql.Row, error) {
	r, err := i.RowIter.Next(ctx)
	if err == nil && i.col < len(r) {
		if v, ok := r[i.col].(int64); ok && v == 0 {
			r[i.col] = nil
		}
	}
	return r, err
}
