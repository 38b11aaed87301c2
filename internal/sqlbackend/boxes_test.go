package sqlbackend

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestBoxes: a value boxed from the slabs is the value ValueToSQL gives
// (type and value), for every kind boxes handles and some it hands on;
// values handed out stay unchanged while the slabs fill and roll over and
// the collector runs; and a row of an INT, a DATETIME and a VARCHAR costs
// far less than an allocation per value.
func TestBoxes(t *testing.T) {
	typs := map[string]*types.Type{
		"int":     {Kind: types.Int},
		"uint":    {Kind: types.Int, Unsigned: true},
		"bigint":  {Kind: types.BigInt},
		"date":    {Kind: types.Date},
		"dt":      {Kind: types.DateTime, Scale: 3},
		"varchar": {Kind: types.VarChar, Length: 2000},
		"double":  {Kind: types.Double},
	}
	long := make([]byte, 1000)
	for i := range long {
		long[i] = byte('a' + i%26)
	}
	var vals []struct {
		typ string
		v   types.Value
	}
	add := func(typ string, v types.Value) {
		vals = append(vals, struct {
			typ string
			v   types.Value
		}{typ, v})
	}
	for i := int64(-300); i < 300; i += 7 {
		add("int", types.Value{I: i * 1001})
		add("uint", types.Value{I: i*1001 + 400000})
		add("bigint", types.Value{I: i * 1 << 40})
		add("date", types.Value{I: types.PackDateTime(2000+int(i%50), 1+int(i+300)%12, 1+int(i+300)%28, 0, 0, 0, 0)})
		add("dt", types.Value{I: types.PackDateTime(1999, 12, 31, 23, 59, int(i+300)%60, int(i+300)*1000)})
		add("varchar", types.Value{B: []byte(fmt.Sprintf("name %d", i))})
		add("double", types.Value{F: float64(i) / 3})
	}
	add("varchar", types.Value{B: long})
	add("varchar", types.Value{B: []byte{}})
	add("varchar", types.Value{Null: true})
	add("date", types.Value{I: 0})
	add("date", types.Value{I: types.PackDateTime(2020, 2, 30, 0, 0, 0, 0)}) // an odd date
	var b boxes
	got := make([]interface{}, len(vals))
	for round := 0; round < 3; round++ {
		for i, x := range vals {
			got[i] = b.value(typs[x.typ], x.v)
		}
		runtime.GC()
		for i, x := range vals {
			want := ValueToSQL(typs[x.typ], x.v)
			if reflect.TypeOf(got[i]) != reflect.TypeOf(want) || !reflect.DeepEqual(got[i], want) {
				t.Fatalf("round %d, %s %v: boxed %T %v, want %T %v", round, x.typ, x.v, got[i], got[i], want, want)
			}
		}
	}
	row := []types.Value{{I: 123456}, {I: types.PackDateTime(2024, 5, 6, 7, 8, 9, 0)}, {B: []byte("some text")}}
	rt := []*types.Type{typs["int"], typs["dt"], typs["varchar"]}
	allocs := testing.AllocsPerRun(1000, func() {
		out := b.row(len(row))
		for i := range row {
			out[i] = b.value(rt[i], row[i])
		}
	})
	if allocs > 0.5 {
		t.Fatalf("%.2f allocations per row of 3 values", allocs)
	}
}

// TestUnpackTime: unpackTime gives time.Date's value for every day of
// years around the calendar's turns, at several times of day.
func TestUnpackTime(t *testing.T) {
	for _, y := range []int{1, 4, 99, 100, 399, 400, 1582, 1899, 1900, 1969, 1970, 1999, 2000, 2023, 2024, 2100, 9999} {
		for mo := 1; mo <= 12; mo++ {
			for d := 1; d <= 31; d++ {
				for _, hms := range [][4]int{{0, 0, 0, 0}, {23, 59, 59, 999999}, {12, 30, 1, 5}} {
					p := types.PackDateTime(y, mo, d, hms[0], hms[1], hms[2], hms[3])
					want := time.Date(y, time.Month(mo), d, hms[0], hms[1], hms[2], hms[3]*1000, time.UTC)
					if got := unpackTime(p); got != want {
						t.Fatalf("%04d-%02d-%02d %v: %v, want %v", y, mo, d, hms, got, want)
					}
				}
			}
		}
	}
}
