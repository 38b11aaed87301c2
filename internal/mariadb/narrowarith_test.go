package mariadb

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// TestIntArithFastPaths compares narrowArith with go-mysql-server's
// Arithmetic over columns of every narrow signed type, and checkedArith's
// int64 path with exact arithmetic over BIGINTs near their bounds (an
// overflow must still be error 1690).
func TestIntArithFastPaths(t *testing.T) {
	ctx := sql.NewEmptyContext()
	rng := rand.New(rand.NewPCG(5, 6))
	narrow := []struct {
		typ      sql.Type
		min, max int64
		of       func(int64) interface{}
	}{
		{gtypes.Int8, math.MinInt8, math.MaxInt8, func(v int64) interface{} { return int8(v) }},
		{gtypes.Int16, math.MinInt16, math.MaxInt16, func(v int64) interface{} { return int16(v) }},
		{gtypes.Int24, -1 << 23, 1<<23 - 1, func(v int64) interface{} { return int32(v) }},
		{gtypes.Int32, math.MinInt32, math.MaxInt32, func(v int64) interface{} { return int32(v) }},
	}
	pick := func(min, max int64) int64 {
		switch rng.IntN(4) {
		case 0:
			return min
		case 1:
			return max
		default:
			return min + rng.Int64N(max-min+1)
		}
	}
	for range 5000 {
		a, b := narrow[rng.IntN(len(narrow))], narrow[rng.IntN(len(narrow))]
		op := []string{"+", "-", "*"}[rng.IntN(3)]
		ar := expression.NewArithmetic(expression.NewGetField(0, a.typ, "a", true), expression.NewGetField(1, b.typ, "b", true), op)
		e, _, err := replaceValueExpr(ar)
		if err != nil {
			t.Fatal(err)
		}
		na, ok := e.(*narrowArith)
		if !ok {
			t.Fatalf("%s %s %s: replaced by %T", a.typ, op, b.typ, e)
		}
		row := sql.Row{a.of(pick(a.min, a.max)), b.of(pick(b.min, b.max))}
		if rng.IntN(10) == 0 {
			row[rng.IntN(2)] = nil
		}
		got, err1 := na.Eval(ctx, row)
		want, err2 := ar.Eval(ctx, row)
		if err1 != nil || err2 != nil || got != want || na.Type() != ar.Type() {
			t.Fatalf("%v %s %v (%s, %s): %v %T %v, want %v %T %v", row[0], op, row[1], a.typ, b.typ, got, got, err1, want, want, err2)
		}
	}
	near := []int64{0, 1, -1, 2, -2, 3037000499, -3037000499, 3037000500, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -(1 << 32)}
	for range 5000 {
		l, r := near[rng.IntN(len(near))], near[rng.IntN(len(near))]
		op := []string{"+", "-", "*"}[rng.IntN(3)]
		c := &checkedArith{Arithmetic: expression.NewArithmetic(expression.NewGetField(0, gtypes.Int64, "a", false), expression.NewGetField(1, gtypes.Int64, "b", false), op), wide: true}
		got, err := c.Eval(ctx, sql.Row{l, r})
		x, y := big.NewInt(l), big.NewInt(r)
		var exact big.Int
		switch op {
		case "+":
			exact.Add(x, y)
		case "-":
			exact.Sub(x, y)
		default:
			exact.Mul(x, y)
		}
		if !exact.IsInt64() {
			if err == nil {
				t.Fatalf("%d %s %d = %v, want error 1690", l, op, r, got)
			}
			continue
		}
		if err != nil || got != exact.Int64() {
			t.Fatalf("%d %s %d = %v (%v), want %d", l, op, r, got, err, exact.Int64())
		}
	}
}
