package sqlfront

import (
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"

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

// sqlCollation returns go-mysql-server's id for one of our collations.
// MariaDB's collations that go-mysql-server lacks map to the closest one
// it has (it only uses them to evaluate expressions; the engine orders and
// compares stored values itself).
func sqlCollation(c *collation.Collation) sql.CollationID {
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
// or nil when the engine does not support it.
func engineCollation(id sql.CollationID) *collation.Collation {
	if id == sql.Collation_Unspecified {
		return collation.Default
	}
	return collation.Lookup(id.Name())
}

// sqlType returns the go-mysql-server type of a column type.
func sqlType(t *types.Type) sql.Type {
	coll := sqlCollation(t.Collation)
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
	}
	return gtypes.LongBlob
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
}

var schemaCache sync.Map // *engine.Table -> *tableSchema

// schemaOf returns the schema of t as go-mysql-server sees it. The result
// is shared and must not be modified.
func schemaOf(t *engine.Table) *tableSchema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*tableSchema)
	}
	s := buildSchema(t)
	schemaCache.Store(t, s)
	return s
}

// forgetSchema drops cached schemas of tables no longer in the catalog.
func forgetSchema(old *engine.Table) { schemaCache.Delete(old) }

func buildSchema(t *engine.Table) *tableSchema {
	inPK := map[int]bool{}
	var pkOrds []int
	if !t.Primary.Hidden {
		pkOrds = append(pkOrds, t.Primary.Columns...)
		for _, c := range t.Primary.Columns {
			inPK[c] = true
		}
	}
	s := &tableSchema{coll: sqlCollation(t.Collation), types: make([]sql.Type, len(t.Columns))}
	sch := make(sql.Schema, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		st := sqlType(&c.Type)
		s.types[i] = st
		col := &sql.Column{
			Name:           c.Name,
			Type:           st,
			Nullable:       c.Nullable,
			Source:         t.Name,
			DatabaseSource: t.DB,
			PrimaryKey:     inPK[i],
			AutoIncrement:  c.AutoIncrement,
		}
		if c.AutoIncrement {
			col.Extra = "auto_increment"
		}
		switch {
		case c.DefaultCurrentTimestamp:
			var args []sql.Expression
			if c.Type.Scale > 0 {
				args = append(args, expression.NewLiteral(int8(c.Type.Scale), gtypes.Int8))
			}
			now, _ := function.NewNow(args...)
			col.Default, _ = sql.NewColumnDefaultValue(now, st, false, false, c.Nullable)
		case c.Default != nil && !c.Default.Null:
			lit := expression.NewLiteral(valueToSQL(&c.Type, *c.Default), st)
			col.Default, _ = sql.NewColumnDefaultValue(lit, st, true, false, c.Nullable)
		}
		sch[i] = col
	}
	s.sch = sql.NewPrimaryKeySchema(sch, pkOrds...)
	return s
}

// columnFromSQL maps a go-mysql-server column definition to the engine's.
// The default must be a literal (or CURRENT_TIMESTAMP / NOW() for the
// temporal kinds): the engine stores values, not expressions.
func columnFromSQL(ctx *sql.Context, c *sql.Column) (types.Column, error) {
	t, err := engineType(c.Type)
	if err != nil {
		return types.Column{}, err
	}
	col := types.Column{Name: c.Name, Type: t, Nullable: c.Nullable, AutoIncrement: c.AutoIncrement}
	if c.AutoIncrement && !t.IsInteger() {
		return col, mapError(engine.ErrBadDefinition)
	}
	if c.Generated != nil {
		return col, errUnsupported("generated column %s", c.Name)
	}
	if c.Default != nil && c.Default.Expr != nil {
		if isNowDefault(c.Default) {
			if t.Kind != types.DateTime && t.Kind != types.Timestamp {
				return col, sql.ErrInvalidColumnDefaultValue.New(c.Name)
			}
			col.DefaultCurrentTimestamp = true
			return col, nil
		}
		if !c.Default.IsLiteral() {
			return col, errUnsupported("DEFAULT expression %s on column %s", c.Default.String(), c.Name)
		}
		v, err := c.Default.Eval(ctx, nil)
		if err != nil {
			return col, err
		}
		if v != nil {
			if v, _, err = c.Type.Convert(ctx, v); err != nil {
				return col, err
			}
			dv, err := valueFromSQL(ctx, &t, v, false)
			if err != nil {
				return col, err
			}
			if t.Class() == types.ClassBytes {
				dv.B = append([]byte{}, dv.B...)
			}
			col.Default = &dv
		}
	}
	return col, nil
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
