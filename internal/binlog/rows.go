package binlog

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dolthub/vitess/go/mysql"
	"golang.org/x/text/encoding/charmap"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// column is how one column is written: its table map type and metadata.
type column struct {
	typ  byte
	meta []byte
}

// maxBytes is the most bytes a character of the column's character set
// takes.
func maxBytes(t *types.Type) uint32 {
	if t.Collation == nil {
		return 1
	}
	switch t.Collation.Charset {
	case "utf8mb4":
		return 4
	case "utf8mb3":
		return 3
	}
	return 1
}

// packLen is the length bytes of a TEXT or BLOB of at most n bytes.
func packLen(n uint32) byte {
	switch {
	case n <= 255:
		return 1
	case n <= 65535:
		return 2
	case n <= 16777215:
		return 3
	}
	return 4
}

// columnOf is column c's type and metadata in a table map.
func columnOf(c *types.Column) (column, error) {
	t := &c.Type
	switch t.Kind {
	case types.TinyInt:
		return column{typ: mysql.TypeTiny}, nil
	case types.SmallInt:
		return column{typ: mysql.TypeShort}, nil
	case types.MediumInt:
		return column{typ: mysql.TypeInt24}, nil
	case types.Int:
		return column{typ: mysql.TypeLong}, nil
	case types.BigInt:
		return column{typ: mysql.TypeLongLong}, nil
	case types.Float:
		return column{typ: mysql.TypeFloat, meta: []byte{4}}, nil
	case types.Double:
		return column{typ: mysql.TypeDouble, meta: []byte{8}}, nil
	case types.Decimal:
		return column{typ: mysql.TypeNewDecimal, meta: []byte{byte(t.Length), t.Scale}}, nil
	case types.Bit:
		return column{typ: mysql.TypeBit, meta: []byte{byte(t.Length % 8), byte(t.Length / 8)}}, nil
	case types.Date:
		return column{typ: mysql.TypeDate}, nil
	case types.DateTime:
		return column{typ: mysql.TypeDateTime2, meta: []byte{t.Scale}}, nil
	case types.Timestamp:
		return column{typ: mysql.TypeTimestamp2, meta: []byte{t.Scale}}, nil
	case types.Time:
		return column{typ: mysql.TypeTime2, meta: []byte{t.Scale}}, nil
	case types.Year:
		return column{typ: mysql.TypeYear}, nil
	case types.Char, types.Binary:
		n := t.Length * maxBytes(t)
		return column{typ: mysql.TypeString, meta: []byte{mysql.TypeString ^ byte((n&0x300)>>4), byte(n)}}, nil
	case types.VarChar, types.VarBinary:
		n := t.Length * maxBytes(t)
		return column{typ: mysql.TypeVarchar, meta: binary.LittleEndian.AppendUint16(nil, uint16(n))}, nil
	case types.Text, types.Blob:
		return column{typ: mysql.TypeBlob, meta: []byte{packLen(t.Length)}}, nil
	case types.Enum:
		return column{typ: mysql.TypeString, meta: []byte{mysql.TypeEnum, byte(enumLen(t))}}, nil
	case types.Set:
		return column{typ: mysql.TypeString, meta: []byte{mysql.TypeSet, byte(setLen(t))}}, nil
	case types.Geometry:
		return column{typ: mysql.TypeGeometry, meta: []byte{4}}, nil
	}
	return column{}, fmt.Errorf("binlog: no binary log type for column %s", c.Name)
}

func enumLen(t *types.Type) int {
	if len(t.Elems) < 256 {
		return 1
	}
	return 2
}

func setLen(t *types.Type) int {
	n := (len(t.Elems) + 7) / 8
	if n > 4 {
		n = 8
	}
	return n
}

// lenenc appends n as a length-encoded integer.
func lenenc(b []byte, n uint64) []byte {
	switch {
	case n < 251:
		return append(b, byte(n))
	case n < 1<<16:
		return binary.LittleEndian.AppendUint16(append(b, 0xfc), uint16(n))
	case n < 1<<24:
		return append(b, 0xfd, byte(n), byte(n>>8), byte(n>>16))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xfe), n)
}

// TableMapEventOf maps table t to its id for the row events after it.
func TableMapEventOf(ts, serverID uint32, t *engine.Table) ([]byte, error) {
	body, err := tableMapBody(t)
	if err != nil {
		return nil, err
	}
	return event(TableMapEvent, ts, serverID, 0, body), nil
}

// tableMapBody is the body of t's table map event.
func tableMapBody(t *engine.Table) ([]byte, error) {
	body := appendTableID(nil, t.ID)
	body = binary.LittleEndian.AppendUint16(body, 1)
	body = append(body, byte(len(t.DB)))
	body = append(append(body, t.DB...), 0)
	body = append(body, byte(len(t.Name)))
	body = append(append(body, t.Name...), 0)
	body = lenenc(body, uint64(len(t.Columns)))
	var meta []byte
	for i := range t.Columns {
		c, err := columnOf(&t.Columns[i])
		if err != nil {
			return nil, err
		}
		body = append(body, c.typ)
		meta = append(meta, c.meta...)
	}
	body = lenenc(body, uint64(len(meta)))
	body = append(body, meta...)
	nulls := make([]byte, (len(t.Columns)+7)/8)
	for i, c := range t.Columns {
		if c.Nullable {
			nulls[i/8] |= 1 << (i % 8)
		}
	}
	return append(body, nulls...), nil
}

func appendTableID(b []byte, id uint32) []byte {
	return append(b, byte(id), byte(id>>8), byte(id>>16), byte(id>>24), 0, 0)
}

// RowsEventOf writes the changes of one kind to table t, all of them
// (last: the statement's last event).
func RowsEventOf(ts, serverID uint32, t *engine.Table, kind engine.ChangeKind, changes []engine.Change, last bool) ([]byte, error) {
	return appendRowsEvent(nil, ts, serverID, t, kind, changes, last)
}

// appendRowsEvent appends RowsEventOf's event to b.
func appendRowsEvent(b []byte, ts, serverID uint32, t *engine.Table, kind engine.ChangeKind, changes []engine.Change, last bool) ([]byte, error) {
	typ := byte(WriteRowsV1)
	switch kind {
	case engine.ChangeUpdate:
		typ = UpdateRowsV1
	case engine.ChangeDelete:
		typ = DeleteRowsV1
	}
	body, start := startEvent(b)
	body = appendTableID(body, t.ID)
	var flags uint16
	if last {
		flags = rowsStmtEnd
	}
	body = binary.LittleEndian.AppendUint16(body, flags)
	n := len(t.Columns)
	body = lenenc(body, uint64(n))
	// (every column's bit set, in the before and after column sets)
	for range 1 + btoi(typ == UpdateRowsV1) {
		for i := 0; i < n; i += 8 {
			body = append(body, byte(1<<min(8, n-i)-1))
		}
	}
	var err error
	for _, c := range changes {
		switch typ {
		case WriteRowsV1:
			body, err = appendImage(body, t, c.Row)
		case DeleteRowsV1:
			body, err = appendImage(body, t, c.Old)
		default:
			if body, err = appendImage(body, t, c.Old); err == nil {
				body, err = appendImage(body, t, c.Row)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	endEvent(body, start, typ, ts, serverID, 0)
	return body, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendImage appends a row image: its NULL bitmap (the bits past the
// last column set, as MariaDB's) and each value that is not NULL.
func appendImage(b []byte, t *engine.Table, r engine.Row) ([]byte, error) {
	n := len(t.Columns)
	start := len(b)
	b = append(b, make([]byte, (n+7)/8)...)
	for i := n; i < (n+7)/8*8; i++ {
		b[start+i/8] |= 1 << (i % 8)
	}
	for i := range n {
		if r[i].Null {
			b[start+i/8] |= 1 << (i % 8)
			continue
		}
		var err error
		if b, err = appendValue(b, &t.Columns[i].Type, r[i]); err != nil {
			return nil, fmt.Errorf("binlog: column %s: %w", t.Columns[i].Name, err)
		}
	}
	return b, nil
}

// appendValue appends v of type t as a row event holds it.
func appendValue(b []byte, t *types.Type, v types.Value) ([]byte, error) {
	switch t.Kind {
	case types.TinyInt:
		return append(b, byte(v.I)), nil
	case types.SmallInt:
		return binary.LittleEndian.AppendUint16(b, uint16(v.I)), nil
	case types.MediumInt:
		return append(b, byte(v.I), byte(v.I>>8), byte(v.I>>16)), nil
	case types.Int:
		return binary.LittleEndian.AppendUint32(b, uint32(v.I)), nil
	case types.BigInt:
		return binary.LittleEndian.AppendUint64(b, uint64(v.I)), nil
	case types.Float:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.F))), nil
	case types.Double:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.F)), nil
	case types.Decimal:
		return appendDecimal(b, string(v.B), int(t.Length), int(t.Scale))
	case types.Bit:
		n := int(t.Length+7) / 8
		for i := n - 1; i >= 0; i-- {
			b = append(b, byte(uint64(v.I)>>(8*i)))
		}
		return b, nil
	case types.Date:
		y, mo, d, _, _, _, _ := types.UnpackDateTime(v.I)
		x := uint32(d) | uint32(mo)<<5 | uint32(y)<<9
		return append(b, byte(x), byte(x>>8), byte(x>>16)), nil
	case types.DateTime:
		y, mo, d, h, mi, s, us := types.UnpackDateTime(v.I)
		ymd := int64(y*13+mo)<<5 | int64(d)
		hms := int64(h)<<12 | int64(mi)<<6 | int64(s)
		x := uint64(ymd<<17|hms) + 0x8000000000
		b = append(b, byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
		return appendFrac(b, us, t.Scale), nil
	case types.Timestamp:
		y, mo, d, h, mi, s, us := types.UnpackDateTime(v.I)
		var secs int64
		if y != 0 {
			secs = time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC).Unix()
		}
		b = binary.BigEndian.AppendUint32(b, uint32(secs))
		return appendFrac(b, us, t.Scale), nil
	case types.Time:
		return appendTime2(b, v.I, t.Scale), nil
	case types.Year:
		if v.I == 0 {
			return append(b, 0), nil
		}
		return append(b, byte(v.I-1900)), nil
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		v.B = charsetBytes(t, v.B)
		n := t.Length * maxBytes(t)
		if n > 255 {
			b = binary.LittleEndian.AppendUint16(b, uint16(len(v.B)))
		} else {
			b = append(b, byte(len(v.B)))
		}
		return append(b, v.B...), nil
	case types.Text, types.Blob, types.Geometry:
		v.B = charsetBytes(t, v.B)
		pl := packLen(t.Length)
		if t.Kind == types.Geometry {
			pl = 4
		}
		var l [4]byte
		binary.LittleEndian.PutUint32(l[:], uint32(len(v.B)))
		return append(append(b, l[:pl]...), v.B...), nil
	case types.Enum:
		if enumLen(t) == 1 {
			return append(b, byte(v.I)), nil
		}
		return binary.LittleEndian.AppendUint16(b, uint16(v.I)), nil
	case types.Set:
		for i := range setLen(t) {
			b = append(b, byte(uint64(v.I)>>(8*i)))
		}
		return b, nil
	}
	return nil, fmt.Errorf("no binary log form for kind %d", t.Kind)
}

// charsetBytes is a character column's value in its character set: a
// latin1 column holds the UTF-8 text SQL wrote (MariaDB's latin1 is
// cp1252; a character it lacks is '?'), bytes that are not UTF-8 (a
// HandlerSocket write) as they are.
func charsetBytes(t *types.Type, b []byte) []byte {
	if t.Collation == nil || t.Collation.Charset != "latin1" || !utf8.Valid(b) {
		return b
	}
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return b
	}
	out := make([]byte, 0, len(b))
	enc := charmap.Windows1252
	for _, r := range string(b) {
		if c, ok := enc.EncodeRune(r); ok {
			out = append(out, c)
		} else {
			out = append(out, '?')
		}
	}
	return out
}

// appendFrac appends the fraction of a DATETIME2 or TIMESTAMP2 of dec
// digits: big-endian, in as many bytes as the digits need.
func appendFrac(b []byte, us int, dec uint8) []byte {
	switch dec {
	case 1, 2:
		return append(b, byte(us/10000))
	case 3, 4:
		return binary.BigEndian.AppendUint16(b, uint16(us/100))
	case 5, 6:
		return append(b, byte(us>>16), byte(us>>8), byte(us))
	}
	return b
}

// appendTime2 appends a TIME of us signed microseconds with dec digits
// (MySQL's packed TIME2: hours, minutes and seconds in the integer part,
// offset to sort unsigned).
func appendTime2(b []byte, us int64, dec uint8) []byte {
	neg := us < 0
	if neg {
		us = -us
	}
	secs, frac := us/1e6, us%1e6
	hms := (secs/3600)<<12 | (secs/60%60)<<6 | secs%60
	nr := hms<<24 + frac
	if neg {
		nr = -nr
	}
	intPart, fracPart := nr>>24, nr%(1<<24)
	int3 := func(x int64) []byte { return append(b, byte(x>>16), byte(x>>8), byte(x)) }
	switch dec {
	case 1, 2:
		b = int3(0x800000 + intPart)
		return append(b, byte(int8(fracPart/10000)))
	case 3, 4:
		b = int3(0x800000 + intPart)
		return binary.BigEndian.AppendUint16(b, uint16(int16(fracPart/100)))
	case 5, 6:
		x := uint64(nr + 0x800000000000)
		return append(b, byte(x>>40), byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
	}
	return int3(0x800000 + intPart)
}

// digBytes is the bytes a group of n (< 9) decimal digits takes.
var digBytes = [10]int{0, 1, 1, 2, 2, 3, 3, 4, 4, 4}

// appendDecimal appends text (a DECIMAL's canonical text) as MySQL's
// binary DECIMAL(prec, scale): each nine digits of the integer and of
// the fraction in four big-endian bytes, the leftover digits in fewer,
// the first bit flipped, every byte inverted for a negative number.
func appendDecimal(b []byte, text string, prec, scale int) ([]byte, error) {
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimPrefix(text, "-")
	ip, fp, _ := strings.Cut(text, ".")
	intg := prec - scale
	if len(ip) > intg && strings.TrimLeft(ip, "0") != "" {
		return nil, fmt.Errorf("decimal %s does not fit (%d,%d)", text, prec, scale)
	}
	ip = strings.Repeat("0", max(intg-len(ip), 0)) + ip[max(len(ip)-intg, 0):]
	fp = (fp + strings.Repeat("0", scale))[:scale]
	start := len(b)
	group := func(digits string) {
		var x uint64
		for _, c := range digits {
			x = x*10 + uint64(c-'0')
		}
		n := digBytes[len(digits)]
		if len(digits) == 9 {
			n = 4
		}
		for i := n - 1; i >= 0; i-- {
			b = append(b, byte(x>>(8*i)))
		}
	}
	lead := intg % 9
	if lead > 0 {
		group(ip[:lead])
	}
	for i := lead; i < intg; i += 9 {
		group(ip[i : i+9])
	}
	for i := 0; i+9 <= scale; i += 9 {
		group(fp[i : i+9])
	}
	if rest := scale % 9; rest > 0 {
		group(fp[scale-rest:])
	}
	if len(b) > start {
		b[start] ^= 0x80
	}
	if neg {
		for i := start; i < len(b); i++ {
			b[i] = ^b[i]
		}
	}
	return b, nil
}
