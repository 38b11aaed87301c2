package hs

import (
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// Null is the SQL NULL value for a key, a row value, an update value or a
// filter value. A nil interface value means NULL too.
var Null = NullValue{}

// NullValue is the type of Null.
type NullValue struct{}

// Value is one value of a result row: SQL NULL, or a byte string (which may
// be empty: NULL and "" are different values). A Value aliases the memory
// of its Result, which is never modified; it is safe to keep and to share.
// A Value may be passed back as a key or a row value.
type Value struct {
	b    []byte
	null bool
}

// IsNull reports whether v is SQL NULL.
func (v Value) IsNull() bool { return v.null }

// Bytes returns the value's bytes (nil for NULL). The slice aliases the
// Result: do not modify it.
func (v Value) Bytes() []byte {
	if v.null {
		return nil
	}
	return v.b
}

// String returns the value as a string ("" for NULL; use IsNull to tell
// them apart).
func (v Value) String() string { return string(v.b) }

// Int64 parses the value as a signed decimal integer. NULL is an error.
func (v Value) Int64() (int64, error) {
	if v.null {
		return 0, errNullConv
	}
	return strconv.ParseInt(unsafeString(v.b), 10, 64)
}

// Uint64 parses the value as an unsigned decimal integer (an insert id, a
// BIGINT UNSIGNED column). NULL is an error.
func (v Value) Uint64() (uint64, error) {
	if v.null {
		return 0, errNullConv
	}
	return strconv.ParseUint(unsafeString(v.b), 10, 64)
}

// Float64 parses the value as a floating-point number (FLOAT, DOUBLE and
// DECIMAL columns print in forms strconv accepts). NULL is an error.
func (v Value) Float64() (float64, error) {
	if v.null {
		return 0, errNullConv
	}
	return strconv.ParseFloat(unsafeString(v.b), 64)
}

// Time parses a DATETIME, TIMESTAMP or DATE value ("2006-01-02 15:04:05"
// with optional fractional seconds, or "2006-01-02") in UTC. The zero date
// "0000-00-00 00:00:00" gives the zero time.Time. NULL is an error.
func (v Value) Time() (time.Time, error) {
	if v.null {
		return time.Time{}, errNullConv
	}
	return parseTime(unsafeString(v.b))
}

var errNullConv = errorString("hs: cannot convert NULL")

type errorString string

func (e errorString) Error() string { return string(e) }

func parseTime(s string) (time.Time, error) {
	if len(s) >= 10 && s[:10] == "0000-00-00" {
		return time.Time{}, nil
	}
	layout := "2006-01-02 15:04:05.999999999"
	if len(s) == 10 {
		layout = "2006-01-02"
	}
	return time.ParseInLocation(layout, s, time.UTC)
}

// unsafeString views b as a string for the duration of a parse.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// TimeFormat is the layout a time.Time is sent in (MySQL's DATETIME text
// form, in the time's own location; convert it first if the column holds
// another zone). Fractional seconds are sent only when non-zero.
const TimeFormat = "2006-01-02 15:04:05.999999"

// appendValue appends v as one request token. It supports nil and Null
// (NULL), string, []byte, Value, bool (1 or 0), every integer and float
// type, time.Time, and pointers to those (a nil pointer is NULL).
//
// It must not let v escape: keys and values are passed as ...any, and
// keeping them on the caller's stack is what makes a request allocation
// free.
func appendValue(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, 0), true
	case NullValue:
		return append(dst, 0), true
	case string:
		return appendEscapedString(dst, x), true
	case []byte:
		return hsproto.AppendEscaped(dst, x), true
	case Value:
		if x.null {
			return append(dst, 0), true
		}
		return hsproto.AppendEscaped(dst, x.b), true
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int16:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int8:
		return strconv.AppendInt(dst, int64(x), 10), true
	case uint:
		return strconv.AppendUint(dst, uint64(x), 10), true
	case uint64:
		return strconv.AppendUint(dst, x, 10), true
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10), true
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10), true
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10), true
	case float64:
		return appendFloat(dst, x, 64), true
	case float32:
		return appendFloat(dst, float64(x), 32), true
	case bool:
		if x {
			return append(dst, '1'), true
		}
		return append(dst, '0'), true
	case time.Time:
		return x.AppendFormat(dst, TimeFormat), true
	case *string:
		if x == nil {
			return append(dst, 0), true
		}
		return appendEscapedString(dst, *x), true
	case *int64:
		if x == nil {
			return append(dst, 0), true
		}
		return strconv.AppendInt(dst, *x, 10), true
	case *int:
		if x == nil {
			return append(dst, 0), true
		}
		return strconv.AppendInt(dst, int64(*x), 10), true
	case *float64:
		if x == nil {
			return append(dst, 0), true
		}
		return appendFloat(dst, *x, 64), true
	case *time.Time:
		if x == nil {
			return append(dst, 0), true
		}
		return x.AppendFormat(dst, TimeFormat), true
	}
	return dst, false
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		// MySQL has no literal for these; send something that converts
		// to 0 rather than a word the column might store as text.
		return append(dst, '0')
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// appendEscapedString is hsproto.AppendEscaped for a string.
func appendEscapedString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x10 {
			dst = append(dst, 0x01, c+0x40)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// typeName names v's type for an error without letting v escape.
func typeName(v any) string {
	t := reflect.TypeOf(v)
	if t == nil {
		return "nil"
	}
	return t.String()
}

// validName reports whether s can be sent as a database, table, index or
// column name: names are sent raw, so they cannot hold a separator or a
// byte the server would read as an escape.
func validName(s string, column bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x10 || (column && c == ',') {
			return false
		}
	}
	return true
}
