package sqlbackend

import (
	"time"
	"unsafe"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/types"
)

// boxes makes the rows a walk converts for go-mysql-server from slabs:
// a row's slots, and the times, integers and strings its values box. A
// row of go-mysql-server is a slice of interfaces, and each time, string
// or integer above 255 put in one is an allocation of its own (a fifth of
// a report's time scanning dates went to those); from a slab it is a
// slot of an array allocated for many. A value is never written after it
// is handed out, so rows sharing a slab share nothing a reader can see;
// a row kept (sorted, hashed) keeps its slab alive, as any interior
// pointer does. Used by one walk, on one goroutine.
type boxes struct {
	slots []interface{}
	times []time.Time
	ints  []int64
	i32s  []int32
	strs  []string
	text  []byte
}

// boxSlab is the number of values each slab holds; textSlab the bytes of
// a text slab (a longer string gets an allocation of its own).
const (
	boxSlab  = 64
	textSlab = 4096
)

// eface is the layout of an empty interface: its type word and a pointer
// to its value.
type eface struct {
	typ, data unsafe.Pointer
}

func typeWord(x interface{}) unsafe.Pointer { return (*eface)(unsafe.Pointer(&x)).typ }

var (
	timeWord   = typeWord(time.Time{})
	int64Word  = typeWord(int64(0))
	int32Word  = typeWord(int32(0))
	stringWord = typeWord("")
)

// boxAt returns the interface of type word typ whose value is at p.
func boxAt(typ, p unsafe.Pointer) (x interface{}) {
	e := (*eface)(unsafe.Pointer(&x))
	e.typ, e.data = typ, p
	return x
}

// row returns a row of n slots.
func (b *boxes) row(n int) sql.Row {
	if cap(b.slots)-len(b.slots) < n {
		b.slots = make([]interface{}, 0, max(n*boxSlab/4, n))
	}
	l := len(b.slots)
	b.slots = b.slots[:l+n]
	return sql.Row(b.slots[l : l+n : l+n])
}

func (b *boxes) time(t time.Time) interface{} {
	if len(b.times) == cap(b.times) {
		b.times = make([]time.Time, 0, boxSlab)
	}
	b.times = append(b.times, t)
	return boxAt(timeWord, unsafe.Pointer(&b.times[len(b.times)-1]))
}

func (b *boxes) int64(v int64) interface{} {
	if v >= 0 && v < 256 {
		return v // boxed without an allocation
	}
	if len(b.ints) == cap(b.ints) {
		b.ints = make([]int64, 0, boxSlab)
	}
	b.ints = append(b.ints, v)
	return boxAt(int64Word, unsafe.Pointer(&b.ints[len(b.ints)-1]))
}

func (b *boxes) int32(v int32) interface{} {
	if v >= 0 && v < 256 {
		return v
	}
	if len(b.i32s) == cap(b.i32s) {
		b.i32s = make([]int32, 0, boxSlab)
	}
	b.i32s = append(b.i32s, v)
	return boxAt(int32Word, unsafe.Pointer(&b.i32s[len(b.i32s)-1]))
}

// string returns the text of p as a string; its bytes are copied into a
// text slab, its header into a string slab.
func (b *boxes) string(p []byte) interface{} {
	var s string
	switch {
	case len(p) == 0:
	case len(p) > textSlab/8:
		s = string(p)
	default:
		if cap(b.text)-len(b.text) < len(p) {
			b.text = make([]byte, 0, textSlab)
		}
		l := len(b.text)
		b.text = append(b.text, p...)
		s = unsafe.String(&b.text[l], len(p))
	}
	if len(b.strs) == cap(b.strs) {
		b.strs = make([]string, 0, boxSlab)
	}
	b.strs = append(b.strs, s)
	return boxAt(stringWord, unsafe.Pointer(&b.strs[len(b.strs)-1]))
}

// value is ValueToSQL(t, v), boxed from b's slabs where it can be.
func (b *boxes) value(t *types.Type, v types.Value) interface{} {
	if v.Null {
		return nil
	}
	switch t.Kind {
	case types.MediumInt, types.Int:
		if !t.Unsigned {
			return b.int32(int32(v.I))
		}
	case types.BigInt:
		if !t.Unsigned {
			return b.int64(v.I)
		}
	case types.Date, types.DateTime, types.Timestamp:
		if v.I != 0 && types.ValidDate(v.I) {
			return b.time(unpackTime(v.I))
		}
	case types.Char, types.VarChar, types.Text:
		return b.string(v.B)
	}
	return ValueToSQL(t, v)
}
