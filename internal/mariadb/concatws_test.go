package mariadb

import (
	"math"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// TestConcatWSMatchesGMS: concatWS answers as go-mysql-server's CONCAT_WS
// for NULLs, numbers (integers of every width), decimals, text and bytes.
func TestConcatWSMatchesGMS(t *testing.T) {
	ctx := sql.NewEmptyContext()
	rows := []sql.Row{
		{"#", int64(1), "ab", decimal.RequireFromString("1.50"), []byte("x\x00y"), nil, uint32(7), 2.5},
		{nil, int64(1), "ab", nil, nil, nil, uint32(0), 0.0},
		{"--", nil, nil, nil, nil, nil, nil, nil},
		{"", int64(-3), "", decimal.RequireFromString("-0.001"), []byte{}, "z", uint32(math.MaxUint32), -1e21},
		{",", int64(math.MinInt64), int8(-128), int16(-32768), int32(math.MinInt32), uint8(255), uint16(65535), uint64(math.MaxUint64)},
		{",", int64(math.MaxInt64), int8(127), int16(300), int32(-1), uint8(0), uint16(9), uint64(0)},
	}
	types := []sql.Type{gtypes.LongText, gtypes.Int64, gtypes.LongText, gtypes.MustCreateDecimalType(10, 3), gtypes.LongBlob, gtypes.LongText, gtypes.Uint32, gtypes.Float64}
	var args []sql.Expression
	for i, typ := range types {
		args = append(args, expression.NewGetField(i, typ, "c", true))
	}
	g, err := function.NewConcatWithSeparator(args...)
	if err != nil {
		t.Fatal(err)
	}
	f := &concatWS{g.(*function.ConcatWithSeparator)}
	for _, r := range rows {
		want, err1 := g.Eval(ctx, r)
		got, err2 := f.Eval(ctx, r)
		if want != got || (err1 == nil) != (err2 == nil) {
			t.Errorf("row %v: got %q (%v), want %q (%v)", r, got, err2, want, err1)
		}
	}
}

// TestExactSumIntegers: the integer fast path of an exact SUM gives the
// decimal sum, across int64 overflow and mixed with decimals.
func TestExactSumIntegers(t *testing.T) {
	ctx := sql.NewEmptyContext()
	for _, vals := range [][]interface{}{
		{int64(math.MaxInt64), int64(math.MaxInt64), int64(5)},
		{int64(math.MinInt64), int64(-1), int64(math.MinInt64)},
		{uint64(math.MaxUint64), uint32(3), int8(-2)},
		{int64(1), decimal.RequireFromString("2.25"), int64(-7)},
	} {
		b := &exactBuffer{agg: &exactAgg{natural: true}, expr: expression.NewGetField(0, gtypes.Int64, "x", true)}
		want := decimal.Zero
		for _, v := range vals {
			if err := b.Update(ctx, sql.Row{v}); err != nil {
				t.Fatal(err)
			}
			d, err := exactValue(v)
			if err != nil {
				t.Fatal(err)
			}
			want = want.Add(d)
		}
		got, _ := b.Eval(ctx)
		if g := got.(decimal.Decimal); !g.Equal(want) || g.Exponent() != want.Exponent() {
			t.Errorf("%v: got %s, want %s", vals, g, want)
		}
	}
}

// TestConcatWSValues: concatWS gives go-mysql-server's CONCAT_WS text for
// text, invalid UTF-8 text (the same error), decimals, integers and
// NULLs.
func TestConcatWSValues(t *testing.T) {
	ctx := sql.NewEmptyContext()
	lit := func(v interface{}, typ sql.Type) sql.Expression { return expression.NewLiteral(v, typ) }
	cases := [][]sql.Expression{
		{lit("#", gtypes.LongText), lit("abc", gtypes.LongText), lit(nil, gtypes.Null), lit(decimal.New(-5, -2), gtypes.MustCreateDecimalType(6, 2)), lit(int32(42), gtypes.Int32)},
		{lit(", ", gtypes.LongText), lit("\xff\xfe", gtypes.LongText), lit("x", gtypes.LongText)},
		{lit("-", gtypes.LongText), lit(decimal.New(123456789, -4), gtypes.MustCreateDecimalType(20, 4)), lit("日本", gtypes.LongText)},
	}
	for _, args := range cases {
		orig, err := function.NewConcatWithSeparator(args...)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := orig.Eval(ctx, nil)
		got, gerr := (&concatWS{orig.(*function.ConcatWithSeparator)}).Eval(ctx, nil)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("%v: got %q, %v; go-mysql-server %q, %v", args, got, gerr, want, werr)
		}
	}
}
