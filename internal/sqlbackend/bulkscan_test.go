package sqlbackend

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bulkSeeds are dump statements and near misses.
var bulkSeeds = []string{
	"INSERT INTO `t` VALUES (1,'a',NULL),(2,'b\\'c',0x00FF),(-3,-1.50,1e-3)",
	"INSERT INTO db.t (a, `b c`) VALUES ('x\\0y\\n\\\\', X'0A'), (NULL, .5);",
	"insert into `weird``name` value (-0,'it''s',7.)",
	"INSERT INTO t VALUES ('\\%')",
	"INSERT INTO t VALUES ('a' 'b')",
	"INSERT INTO t VALUES (1),(2,3)",
	"INSERT IGNORE INTO t VALUES (1)",
	"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a=1",
	"INSERT INTO t VALUES (1+1)",
	"INSERT INTO t VALUES (--1)",
	"INSERT INTO t VALUES (0x, 0xg1, x'1')",
	"INSERT INTO t VALUES ('日本語','😀',_binary 'x')",
	"INSERT INTO t VALUES (1e400, 123456789012345678901234567890, 18446744073709551615)",
	"INSERT INTO t /* c */ VALUES (1)",
	"INSERT INTO t VALUES (1); DROP TABLE t",
}

// TestScanBulkInsertSeeds checks the seeds against the parser and that
// the dump shapes are accepted.
func TestScanBulkInsertSeeds(t *testing.T) {
	for _, s := range bulkSeeds {
		checkBulkScan(t, s)
	}
	for _, s := range bulkSeeds[:3] {
		if ScanBulkInsert(s, true) == nil {
			t.Errorf("refused: %s", s)
		}
	}
	b := ScanBulkInsert(bulkSeeds[0], true)
	if b.Rows() != 3 || b.Width != 3 || b.Values[4].Text != "b'c" || b.Values[5].Text != "\x00\xff" || b.Values[7].Kind != BulkDecimal || !b.Values[7].Neg {
		t.Errorf("scanned %+v", b)
	}
	if ScanBulkInsert(bulkSeeds[0], false) != nil {
		t.Error("accepted under NO_BACKSLASH_ESCAPES")
	}
}

// FuzzScanBulkInsert: whatever the scanner accepts, vitess's parser reads
// as the same INSERT: the same table and columns, and each value the
// same literal.
func FuzzScanBulkInsert(f *testing.F) {
	for _, s := range bulkSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkBulkScan(t, s)
	})
}

func checkBulkScan(t *testing.T, s string) {
	t.Helper()
	b := ScanBulkInsert(s, true)
	if b == nil {
		return
	}
	st, err := sqlparser.Parse(s)
	if err != nil {
		t.Fatalf("scanned but the parser refuses %q: %v", s, err)
	}
	ins, ok := st.(*sqlparser.Insert)
	if !ok || ins.Action != "insert" || ins.Ignore != "" || ins.OnDup != nil || len(ins.Comments) > 0 || ins.With != nil || ins.Partitions != nil || ins.Returning != nil {
		t.Fatalf("%q: parsed as %T %+v", s, st, st)
	}
	if ins.Table.Name.String() != b.Table || ins.Table.DbQualifier.String() != b.DB {
		t.Fatalf("%q: table %q.%q, scanned %q.%q", s, ins.Table.DbQualifier.String(), ins.Table.Name.String(), b.DB, b.Table)
	}
	if len(ins.Columns) != len(b.Columns) {
		t.Fatalf("%q: %d columns, scanned %d", s, len(ins.Columns), len(b.Columns))
	}
	for i, c := range ins.Columns {
		if c.String() != b.Columns[i] {
			t.Fatalf("%q: column %q, scanned %q", s, c.String(), b.Columns[i])
		}
	}
	var rows sqlparser.Values
	switch r := ins.Rows.(type) {
	case *sqlparser.AliasedValues:
		if !r.As.IsEmpty() || len(r.Columns) > 0 {
			t.Fatalf("%q: an alias", s)
		}
		rows = r.Values
	default:
		t.Fatalf("%q: rows are %T", s, ins.Rows)
	}
	if len(rows) != b.Rows() {
		t.Fatalf("%q: %d rows, scanned %d", s, len(rows), b.Rows())
	}
	for r, tuple := range rows {
		if len(tuple) != b.Width {
			t.Fatalf("%q: row %d has %d values, scanned %d", s, r, len(tuple), b.Width)
		}
		for j, e := range tuple {
			if !sameLiteral(e, &b.Values[r*b.Width+j]) {
				t.Fatalf("%q: row %d value %d: parsed %#v, scanned %+v", s, r, j, e, b.Values[r*b.Width+j])
			}
		}
	}
}

// sameLiteral reports whether the parser's expression is the literal the
// scanner read.
func sameLiteral(e sqlparser.Expr, v *BulkValue) bool {
	neg := false
	if u, ok := e.(*sqlparser.UnaryExpr); ok {
		if u.Operator != sqlparser.UMinusStr {
			return false
		}
		neg, e = true, u.Expr
	}
	switch x := e.(type) {
	case *sqlparser.NullVal:
		return v.Kind == BulkNull && !neg
	case *sqlparser.SQLVal:
		switch x.Type {
		case sqlparser.IntVal:
			return v.Kind == BulkInt && !neg && string(x.Val) == v.Text
		case sqlparser.FloatVal:
			kind := BulkDecimal
			if strings.ContainsAny(string(x.Val), "eE") {
				kind = BulkFloat
			}
			return v.Kind == kind && v.Neg == neg && string(x.Val) == v.Text
		case sqlparser.StrVal:
			return v.Kind == BulkString && !neg && string(x.Val) == v.Text
		case sqlparser.HexNum:
			d := strings.TrimPrefix(strings.ToLower(string(x.Val)), "0x")
			if len(d)%2 == 1 {
				d = "0" + d
			}
			want, err := hex.DecodeString(d)
			return err == nil && v.Kind == BulkHex && !neg && bytes.Equal(want, []byte(v.Text))
		case sqlparser.HexVal:
			want, err := x.HexDecode()
			return err == nil && v.Kind == BulkHex && !neg && bytes.Equal(want, []byte(v.Text))
		}
	}
	return false
}

// TestIntLiteral: the one-parse intLiteral picks the type the planner's
// cascade of parses picks.
func TestIntLiteral(t *testing.T) {
	cascade := func(s string) interface{} {
		if i, err := strconv.ParseInt(s, 10, 8); err == nil {
			return int8(i)
		}
		if u, err := strconv.ParseUint(s, 10, 8); err == nil {
			return uint8(u)
		}
		if i, err := strconv.ParseInt(s, 10, 16); err == nil {
			return int16(i)
		}
		if u, err := strconv.ParseUint(s, 10, 16); err == nil {
			return uint16(u)
		}
		if i, err := strconv.ParseInt(s, 10, 32); err == nil {
			return int32(i)
		}
		if u, err := strconv.ParseUint(s, 10, 32); err == nil {
			return uint32(u)
		}
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u
		}
		return nil
	}
	var edges []string
	for _, e := range []int64{0, 127, 128, 255, 256, 32767, 32768, 65535, 65536, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64} {
		for _, d := range []int64{-1, 0, 1} {
			if v := e + d; v >= 0 || e == 0 {
				edges = append(edges, strconv.FormatInt(v, 10), strconv.FormatInt(-v, 10))
			}
		}
	}
	edges = append(edges, "-9223372036854775808", "9223372036854775808", "18446744073709551615", "007", "-0")
	for _, s := range edges {
		got, ok := intLiteral(context.Background(), s)
		if want := cascade(s); !ok || fmt.Sprintf("%T %v", got, got) != fmt.Sprintf("%T %v", want, want) {
			t.Errorf("%s: %T %v, the planner's %T %v", s, got, got, want, want)
		}
	}
}
