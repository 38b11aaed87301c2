package sqlbackend

import (
	"strconv"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Column types cross between go-mysql-server and the engine here: every
// types.Kind has one go-mysql-server type, and CREATE/ALTER TABLE maps
// go-mysql-server's column types back. Pure functions, safe for
// concurrent use.

// jsonLength marks a JSON column: the engine has no JSON kind, so a JSON
// column is stored as a BLOB of this length (one byte short of LONGBLOB's)
// holding the document's text. HandlerSocket reads and writes that text.
const jsonLength = 4294967294

// isJSON reports whether a column type is a JSON column's.
func isJSON(t *types.Type) bool { return t.Kind == types.Blob && t.Length == jsonLength }

// SQLCollation returns go-mysql-server's id for one of our collations.
// MariaDB's collations that go-mysql-server lacks map to the closest one
// it has (it only uses them to evaluate expressions; the engine orders and
// compares stored values itself).
func SQLCollation(c *collation.Collation) sql.CollationID {
	if c == nil {
		c = collation.Default
	}
	if id, err := sql.ParseCollation("", c.Name, false); err == nil {
		return id
	}
	switch c.Charset {
	case "latin1":
		return sql.Collation_latin1_bin
	case "binary":
		return sql.Collation_binary
	}
	if strings.Contains(c.Name, "_ci") {
		return sql.Collation_utf8mb4_0900_ai_ci
	}
	return sql.Collation_utf8mb4_bin
}

// engineCollation returns our collation for a go-mysql-server collation id,
// or nil when the engine does not support it. go-mysql-server's own
// default, utf8mb4_0900_bin (which it gives to expressions, as in CREATE
// TABLE ... AS SELECT CONCAT(...)), becomes utf8mb4_bin, the same order
// with PAD SPACE.
func engineCollation(id sql.CollationID) *collation.Collation {
	switch id {
	case sql.Collation_Unspecified:
		return collation.Default
	case sql.Collation_utf8mb4_0900_bin:
		return collation.Utf8mb4Bin
	}
	return collation.Lookup(id.Name())
}

// SQLType returns the go-mysql-server type of a column type.
func SQLType(t *types.Type) sql.Type {
	coll := SQLCollation(t.Collation)
	switch t.Kind {
	case types.TinyInt:
		if t.Unsigned {
			return gtypes.Uint8
		}
		return gtypes.Int8
	case types.SmallInt:
		if t.Unsigned {
			return gtypes.Uint16
		}
		return gtypes.Int16
	case types.MediumInt:
		if t.Unsigned {
			return gtypes.Uint24
		}
		return gtypes.Int24
	case types.Int:
		if t.Unsigned {
			return gtypes.Uint32
		}
		return gtypes.Int32
	case types.BigInt:
		if t.Unsigned {
			return gtypes.Uint64
		}
		return gtypes.Int64
	case types.Float:
		return gtypes.Float32
	case types.Double:
		return gtypes.Float64
	case types.Decimal:
		p := t.Length
		if p == 0 {
			p = 10
		}
		if dt, err := gtypes.CreateColumnDecimalType(uint8(p), t.Scale); err == nil {
			return dt
		}
		return gtypes.MustCreateDecimalType(65, t.Scale)
	case types.Bit:
		n := t.Length
		if n == 0 {
			n = 1
		}
		return gtypes.MustCreateBitType(uint8(n))
	case types.Date:
		return gtypes.Date
	case types.DateTime:
		return gtypes.MustCreateDatetimeType(sqltypes.Datetime, int(t.Scale))
	case types.Timestamp:
		return gtypes.MustCreateDatetimeType(sqltypes.Timestamp, int(t.Scale))
	case types.Time:
		if t.Scale > 0 {
			return TimeType{TimeType: gtypes.Time, Scale: t.Scale}
		}
		return gtypes.Time
	case types.Year:
		return gtypes.Year
	case types.Char:
		return gtypes.MustCreateString(sqltypes.Char, int64(t.Length), coll)
	case types.VarChar:
		return gtypes.MustCreateString(sqltypes.VarChar, int64(t.Length), coll)
	case types.Text:
		switch {
		case t.Length <= 255:
			return gtypes.CreateTinyText(coll)
		case t.Length <= 65535:
			return gtypes.CreateText(coll)
		case t.Length <= 16777215:
			return gtypes.CreateMediumText(coll)
		}
		return gtypes.CreateLongText(coll)
	case types.Binary:
		return gtypes.MustCreateBinary(sqltypes.Binary, int64(t.Length))
	case types.VarBinary:
		return gtypes.MustCreateBinary(sqltypes.VarBinary, int64(t.Length))
	case types.Blob:
		switch {
		case t.Length == jsonLength:
			return gtypes.JSON
		case t.Length <= 255:
			return gtypes.TinyBlob
		case t.Length <= 65535:
			return gtypes.Blob
		case t.Length <= 16777215:
			return gtypes.MediumBlob
		}
		return gtypes.LongBlob
	case types.Enum:
		if et, err := gtypes.CreateEnumType(t.Elems, coll); err == nil {
			return et
		}
	case types.Set:
		if st, err := gtypes.CreateSetType(t.Elems, coll); err == nil {
			return st
		}
	case types.Geometry:
		return sqlGeometryType(t)
	}
	return gtypes.LongBlob
}

// timeType is go-mysql-server's TIME for a TIME(n) column (n from 1 to
// 6), printing its values with n fractional digits as MariaDB does
// (go-mysql-server prints six, or none when they are all zero). It is an
// immutable value, safe for concurrent use.
type TimeType struct {
	gtypes.TimeType
	Scale uint8
}

// SQL prints a TIME value with the column's digits.
func (t TimeType) SQL(ctx *sql.Context, dest []byte, v interface{}) (sqltypes.Value, error) {
	if v == nil {
		return sqltypes.NULL, nil
	}
	ts, err := t.ConvertToTimespan(v)
	if err != nil {
		return sqltypes.Value{}, err
	}
	et := &types.Type{Kind: types.Time, Scale: t.Scale}
	return sqltypes.MakeTrusted(sqltypes.Time, types.AppendFormat(dest, et, types.Value{I: int64(ts)})), nil
}

// String is the type as MariaDB names it.
func (t TimeType) String() string { return "time(" + strconv.Itoa(int(t.Scale)) + ")" }

// Equals reports whether other is a TimeType of the same digits.
// go-mysql-server's own TIME type has no digits, so it equals none:
// its query builder drops a CAST whose argument's type equals the
// cast's, and the cast's type is its TIME whatever digits the CAST
// asks (CAST(c AS TIME(2)) of a TIME(1) column would keep one digit).
func (t TimeType) Equals(other sql.Type) bool {
	o, ok := other.(TimeType)
	return ok && o.Scale == t.Scale
}

// engineType maps a go-mysql-server column type to the engine's.
func engineType(st sql.Type) (types.Type, error) {
	var t types.Type
	switch st.Type() {
	case sqltypes.Int8, sqltypes.Uint8:
		t.Kind = types.TinyInt
	case sqltypes.Int16, sqltypes.Uint16:
		t.Kind = types.SmallInt
	case sqltypes.Int24, sqltypes.Uint24:
		t.Kind = types.MediumInt
	case sqltypes.Int32, sqltypes.Uint32:
		t.Kind = types.Int
	case sqltypes.Int64, sqltypes.Uint64:
		t.Kind = types.BigInt
	case sqltypes.Float32:
		t.Kind = types.Float
	case sqltypes.Float64:
		t.Kind = types.Double
	case sqltypes.Decimal:
		dt := st.(sql.DecimalType)
		t.Kind, t.Length, t.Scale = types.Decimal, uint32(dt.Precision()), dt.Scale()
	case sqltypes.Bit:
		t.Kind, t.Length = types.Bit, uint32(st.(gtypes.BitType).NumberOfBits())
	case sqltypes.Date:
		t.Kind = types.Date
	case sqltypes.Datetime:
		t.Kind, t.Scale = types.DateTime, uint8(st.(sql.DatetimeType).Precision())
	case sqltypes.Timestamp:
		t.Kind, t.Scale = types.Timestamp, uint8(st.(sql.DatetimeType).Precision())
	case sqltypes.Time:
		t.Kind = types.Time
		if tt, ok := st.(TimeType); ok {
			t.Scale = tt.Scale
		}
	case sqltypes.Year:
		t.Kind = types.Year
	case sqltypes.Char, sqltypes.VarChar, sqltypes.Text:
		s := st.(sql.StringType)
		switch st.Type() {
		case sqltypes.Char:
			t.Kind, t.Length = types.Char, uint32(s.MaxCharacterLength())
		case sqltypes.VarChar:
			t.Kind, t.Length = types.VarChar, uint32(s.MaxCharacterLength())
		default:
			t.Kind, t.Length = types.Text, uint32(s.MaxByteLength())
		}
		t.Collation = engineCollation(s.Collation())
		if t.Collation == nil {
			return t, errUnsupported("collation %s", s.Collation().Name())
		}
		if t.Collation == collation.Binary {
			t.Kind += types.Binary - types.Char
			t.Collation = nil
		}
	case sqltypes.Binary:
		t.Kind, t.Length = types.Binary, uint32(st.(sql.StringType).MaxByteLength())
	case sqltypes.VarBinary:
		t.Kind, t.Length = types.VarBinary, uint32(st.(sql.StringType).MaxByteLength())
	case sqltypes.Blob:
		t.Kind, t.Length = types.Blob, uint32(st.(sql.StringType).MaxByteLength())
	case sqltypes.TypeJSON:
		t.Kind, t.Length = types.Blob, jsonLength
	case sqltypes.Enum:
		et := st.(sql.EnumType)
		t.Kind, t.Elems = types.Enum, et.Values()
		if t.Collation = engineCollation(et.Collation()); t.Collation == nil {
			t.Collation = collation.Default
		}
	case sqltypes.Set:
		s := st.(sql.SetType)
		t.Kind, t.Elems = types.Set, s.Values()
		if t.Collation = engineCollation(s.Collation()); t.Collation == nil {
			t.Collation = collation.Default
		}
	default:
		if gt, ok := engineGeometryType(st); ok {
			return gt, nil
		}
		return t, errUnsupported("column type %s", st.String())
	}
	if nt, ok := st.(sql.NumberType); ok && !nt.IsFloat() && !nt.IsSigned() {
		t.Unsigned = true
	}
	return t, nil
}

// tableSchema is the go-mysql-server schema of one catalog version of a
// table; built once per *engine.Table (they are immutable) and shared.
type tableSchema struct {
	sch   sql.PrimaryKeySchema
	coll  sql.CollationID
	types []sql.Type
	meta  *tableMeta // the SQL attributes it was built with

	exactOnce sync.Once  // builds exact
	exact     sql.Schema // sch with text compared by bytes (exactupdate.go)
}

var schemaCache sync.Map // *engine.Table -> *tableSchema

// schemaOf returns the schema of t as go-mysql-server sees it (with the
// SQL attributes kept beside the table). The result is shared and must not
// be modified. A table's attributes change only with its definition
// (ALTER TABLE makes a new *engine.Table), except CHECK constraints, which
// are not part of the schema.
func (p *Provider) schemaOf(t *engine.Table) *tableSchema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*tableSchema)
	}
	m, err := p.tableMeta(t.ID)
	if err != nil {
		m = &tableMeta{}
	}
	s := buildSchema(t, m)
	schemaCache.Store(t, s)
	return s
}

func buildSchema(t *engine.Table, m *tableMeta) *tableSchema {
	inPK := map[int]bool{}
	var pkOrds []int
	if !t.Primary.Hidden {
		pkOrds = append(pkOrds, t.Primary.Columns...)
		for _, c := range t.Primary.Columns {
			inPK[c] = true
		}
	}
	s := &tableSchema{coll: SQLCollation(t.Collation), types: make([]sql.Type, len(t.Columns)), meta: m}
	sch := make(sql.Schema, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		st := SQLType(&c.Type)
		if c.Type.Kind == types.TinyInt && !c.Type.Unsigned && m.Widths[c.Name] == "1" {
			st = gtypes.Boolean // tinyint(1), the one width go-mysql-server's types keep
		}
		s.types[i] = st
		col := &sql.Column{
			Name:           c.Name,
			Type:           st,
			Nullable:       c.Nullable,
			Source:         sqlName(t),
			DatabaseSource: t.DB,
			PrimaryKey:     inPK[i],
			AutoIncrement:  c.AutoIncrement,
		}
		if c.AutoIncrement {
			col.Extra = "auto_increment"
		}
		col.Comment = m.Comments[c.Name]
		if e := m.Generated[c.Name]; e != "" {
			col.Generated = sql.NewUnresolvedColumnDefaultValue("(" + e + ")")
			col.Virtual = m.Stored[c.Name] == ""
		}
		if e := m.OnUpdate[c.Name]; e != "" {
			// Stored as printed; an unresolved default is resolved by
			// go-mysql-server's planner when a statement uses the table.
			col.OnUpdate = sql.NewUnresolvedColumnDefaultValue(e)
		}
		switch {
		case m.Defaults[c.Name] != "":
			col.Default = sql.NewUnresolvedColumnDefaultValue(m.Defaults[c.Name])
		case c.DefaultCurrentTimestamp:
			var args []sql.Expression
			if c.Type.Scale > 0 {
				args = append(args, expression.NewLiteral(int8(c.Type.Scale), gtypes.Int8))
			}
			now, _ := function.NewNow(args...)
			col.Default, _ = sql.NewColumnDefaultValue(now, st, false, false, c.Nullable)
		case c.Default != nil && !c.Default.Null:
			lit := expression.NewLiteral(ValueToSQL(&c.Type, *c.Default), st)
			col.Default, _ = sql.NewColumnDefaultValue(lit, st, true, false, c.Nullable)
		}
		sch[i] = col
	}
	s.sch = sql.NewPrimaryKeySchema(sch, pkOrds...)
	return s
}

// columnFromSQL maps a go-mysql-server column definition to the engine's
// and to the SQL attributes kept beside it. A literal default is stored
// by the engine (and so applies to HandlerSocket inserts too), as is
// CURRENT_TIMESTAMP on DATETIME/TIMESTAMP; any other DEFAULT expression,
// ON UPDATE and the COMMENT are SQL attributes.
func columnFromSQL(ctx *sql.Context, c *sql.Column) (types.Column, columnMeta, error) {
	var cm columnMeta
	if err := checkName(ctx, nameColumn, c.Name); err != nil {
		return types.Column{}, cm, err
	}
	t, err := engineType(c.Type)
	if err != nil {
		return types.Column{}, cm, err
	}
	if c.Type.Type() == sqltypes.TypeJSON && AnswersAsMariaDB(ctx) {
		// MariaDB's JSON is LONGTEXT utf8mb4_bin with a JSON_VALID check
		// (GetChecks adds it): the text stays as inserted.
		t = types.Type{Kind: types.Text, Length: longTextLength, Collation: collation.Utf8mb4Bin}
		cm.json = "1"
	}
	if dt := declaredType(ctx, c.Name); dt != nil && t.Kind == types.Time && dt.Length != nil {
		// TIME(n), which go-mysql-server's planner saw as TIME(6)
		// (mariadb's timeScales): the engine keeps n digits.
		if n, err := strconv.Atoi(string(dt.Length.Val)); err == nil && n >= 0 && n <= 6 {
			t.Scale = uint8(n)
		}
	}
	if dt := declaredType(ctx, c.Name); dt != nil && (t.Kind == types.Float || t.Kind == types.Double) && dt.Length != nil && dt.Scale != nil {
		// FLOAT(M,D) / DOUBLE(M,D), whose M and D go-mysql-server's
		// types do not keep: the engine rounds stored values to D
		// decimals.
		m, err1 := strconv.Atoi(string(dt.Length.Val))
		d, err2 := strconv.Atoi(string(dt.Scale.Val))
		if err1 != nil || err2 != nil || m < 1 || m > 255 || d > 30 || d > m {
			return types.Column{}, cm, errUnsupported("%s(%s,%s)", dt.Type, dt.Length.Val, dt.Scale.Val)
		}
		t.Length, t.Scale = uint32(m), uint8(d)
	}
	if dt := declaredType(ctx, c.Name); dt != nil && bool(dt.Unsigned || dt.Zerofill) && (t.Kind == types.Decimal || t.Kind == types.Float || t.Kind == types.Double) {
		// DECIMAL, FLOAT and DOUBLE UNSIGNED (ZEROFILL implies it),
		// which go-mysql-server's types drop: the engine keeps it, so a
		// negative value stores as 0 with 1264 and SHOW CREATE TABLE
		// prints it, as in MariaDB.
		t.Unsigned = true
	}
	if t.IsInteger() && t.Kind != types.Year {
		if dt := declaredType(ctx, c.Name); dt != nil {
			w := 0
			if dt.Length != nil {
				w, _ = strconv.Atoi(string(dt.Length.Val))
			} else if k := strings.ToLower(dt.Type); k == "bool" || k == "boolean" {
				w = 1 // BOOL is tinyint(1)
			}
			if w > 0 && w <= 255 && w != types.DefaultWidth(&t) {
				cm.width = strconv.Itoa(w)
			}
		}
	}
	col := types.Column{Name: c.Name, Type: t, Nullable: c.Nullable, AutoIncrement: c.AutoIncrement}
	if c.AutoIncrement && !t.IsInteger() {
		return col, cm, errUnsupported("AUTO_INCREMENT on a %s column", st(c.Type))
	}
	cm.comment = c.Comment
	if c.Generated != nil {
		cm.generated = exprText(c.Generated)
		if !c.Virtual {
			cm.stored = "1"
		}
		return col, cm, nil
	}
	if c.OnUpdate != nil && c.OnUpdate.Expr != nil {
		cm.onUpdate = exprText(c.OnUpdate)
	}
	if c.Default != nil && c.Default.Expr != nil {
		if isNowDefault(c.Default) && (t.Kind == types.DateTime || t.Kind == types.Timestamp) {
			col.DefaultCurrentTimestamp = true
			return col, cm, nil
		}
		if !c.Default.IsLiteral() {
			cm.def = c.Default.String()
			return col, cm, nil
		}
		if c.Default.IsParenthesized() {
			// DEFAULT (2): the engine stores the value, SQL shows the
			// expression as written.
			cm.def = c.Default.String()
		}
		v, err := c.Default.Eval(ctx, nil)
		if err != nil {
			return col, cm, err
		}
		if v == nil {
			cm.def = "NULL" // the engine keeps no difference from no DEFAULT
		}
		if v != nil {
			if v, _, err = c.Type.Convert(ctx, v); err != nil {
				return col, cm, err
			}
			dv, err := valueFromSQL(ctx, &t, v, false)
			if err != nil {
				return col, cm, err
			}
			if t.Class() == types.ClassBytes {
				dv.B = append([]byte{}, dv.B...)
			}
			col.Default = &dv
		}
	}
	return col, cm, nil
}

func st(t sql.Type) string { return strings.ToUpper(t.String()) }

// longTextLength is LONGTEXT's maximum length in bytes.
const longTextLength = 4294967295

// mariaDB reports whether the statement's provider answers as MariaDB
// (Provider.MariaDB).
func AnswersAsMariaDB(ctx *sql.Context) bool {
	s := SessionOf(ctx)
	return s != nil && s.p.maria
}

// declaredType returns the type of the named column as the running
// statement (CREATE TABLE, ALTER TABLE) wrote it, or nil: the parser's
// column type keeps what go-mysql-server's types drop (the M and D of
// FLOAT(M,D), an integer's display width, TIME(n)), from the statement's
// one extra parse (declaredStatement), which only DDL asks for.
func declaredType(ctx *sql.Context, name string) *sqlparser.ColumnType {
	st := declaredStatement(ctx)
	var ddls []*sqlparser.DDL
	switch st := st.(type) {
	case *sqlparser.DDL:
		ddls = append(ddls, st)
	case *sqlparser.AlterTable:
		ddls = st.Statements
	}
	for _, d := range ddls {
		if d.TableSpec == nil {
			continue
		}
		for _, c := range d.TableSpec.Columns {
			if strings.EqualFold(c.Name.String(), name) {
				return &c.Type
			}
		}
	}
	return nil
}

// declaredIndexUsing returns the USING clause (BTREE or HASH) the
// statement being run gave the index of that name in a CREATE TABLE
// (go-mysql-server drops it there), or "".
func declaredIndexUsing(ctx *sql.Context, name string) string {
	if !strings.Contains(strings.ToLower(ctx.Query()), "using") {
		return ""
	}
	d, ok := declaredStatement(ctx).(*sqlparser.DDL)
	if !ok || d.TableSpec == nil {
		return ""
	}
	for _, ix := range d.TableSpec.Indexes {
		if ix.Info == nil || !strings.EqualFold(ix.Info.Name.String(), name) {
			continue
		}
		for _, o := range ix.Options {
			if o != nil && strings.EqualFold(o.Name, "using") {
				return strings.ToUpper(o.Using)
			}
		}
	}
	return ""
}

// lastDeclared holds the parse of the last DDL statement declaredStatement
// read: a CREATE TABLE asks it once per column and index (widths, FLOAT(M,D),
// TIME(n), USING, CHECK), and one parse serves them all. The statement is
// only read after the parse; the mutex guards the one entry.
var lastDeclared struct {
	mu sync.Mutex
	q  string
	st sqlparser.Statement
}

// declaredStatement returns the parse of the running statement's text, or
// nil (no text, or text that does not parse as written).
func declaredStatement(ctx *sql.Context) sqlparser.Statement {
	q := ctx.Query()
	if q == "" {
		return nil
	}
	lastDeclared.mu.Lock()
	defer lastDeclared.mu.Unlock()
	if lastDeclared.q == q {
		return lastDeclared.st
	}
	st, _, err := sqlparser.ParseOne(ctx, q)
	if err != nil {
		st = nil
	}
	lastDeclared.q, lastDeclared.st = q, st
	return st
}

// isNowDefault reports whether a default is CURRENT_TIMESTAMP or NOW().
func isNowDefault(d *sql.ColumnDefaultValue) bool {
	s := strings.ToLower(d.String())
	s = strings.Trim(s, "()")
	switch s {
	case "current_timestamp", "now", "current_timestamp(", "now(", "localtime", "localtimestamp":
		return true
	}
	return strings.HasPrefix(s, "current_timestamp(") || strings.HasPrefix(s, "now(")
}
