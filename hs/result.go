package hs

import (
	"bytes"

	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// Result holds the rows of a find (or of a modify that returns rows), each
// with the index's columns in order. A Result is never modified once
// returned, so it is safe to read from several goroutines.
type Result struct {
	cols  []string
	vals  []Value // row-major: row i is vals[i*ncols:(i+1)*ncols]
	ncols int
}

// fill parses the values of a reply: rest is everything after
// "0\t<ncols>\t" (nil when there are no values).
func (r *Result) fill(cols []string, ncols int, rest []byte) error {
	r.cols, r.ncols = cols, ncols
	if ncols != len(cols) {
		return protocolErr(rest)
	}
	if rest == nil {
		return nil
	}
	n := bytes.Count(rest, tab) + 1
	if ncols == 0 || n%ncols != 0 {
		return protocolErr(rest)
	}
	buf := make([]byte, len(rest))
	copy(buf, rest)
	vals := make([]Value, n)
	for i := range vals {
		j := bytes.IndexByte(buf, '\t')
		tok := buf
		if j >= 0 {
			tok, buf = buf[:j:j], buf[j+1:]
		}
		if len(tok) == 1 && tok[0] == 0 {
			vals[i] = Value{null: true}
		} else {
			vals[i] = Value{b: hsproto.Unescape(tok)}
		}
	}
	r.vals = vals
	return nil
}

var tab = []byte{'\t'}

// Len returns the number of rows.
func (r *Result) Len() int {
	if r == nil || r.ncols == 0 {
		return 0
	}
	return len(r.vals) / r.ncols
}

// Columns returns the column names (do not modify).
func (r *Result) Columns() []string { return r.cols }

// Row returns row i (0 <= i < Len()).
func (r *Result) Row(i int) Row {
	n := r.ncols
	return Row{cols: r.cols, vals: r.vals[i*n : (i+1)*n : (i+1)*n]}
}

// Rows returns every row.
func (r *Result) Rows() []Row {
	rows := make([]Row, r.Len())
	for i := range rows {
		rows[i] = r.Row(i)
	}
	return rows
}

// Scan copies the rows into dst, which is one of:
//
//   - a pointer to a struct: the first row (ErrNotFound when there is
//     none); see Row.Scan for how columns map to fields;
//   - a pointer to a map[string]string, map[string]Value or map[string]any:
//     the first row, as Row.Scan does;
//   - a pointer to a slice of structs, of pointers to structs, or of maps:
//     every row, appended to the slice.
func (r *Result) Scan(dst any) error {
	return scanResult(r, dst)
}

// Row is one row of a Result: the index's columns and their values.
type Row struct {
	cols []string
	vals []Value
}

// Len returns the number of values.
func (r Row) Len() int { return len(r.vals) }

// Columns returns the column names (do not modify).
func (r Row) Columns() []string { return r.cols }

// Values returns the values in column order (do not modify).
func (r Row) Values() []Value { return r.vals }

// Value returns value i.
func (r Row) Value(i int) Value { return r.vals[i] }

// String returns value i as a string ("" for NULL).
func (r Row) String(i int) string { return r.vals[i].String() }

// Get returns the value of column name (false when the row has no such
// column).
func (r Row) Get(name string) (Value, bool) {
	for i, c := range r.cols {
		if c == name {
			return r.vals[i], true
		}
	}
	return Value{}, false
}

// Map returns the row as a map from column name to value; NULL columns
// are left out.
func (r Row) Map() map[string]string {
	m := make(map[string]string, len(r.vals))
	for i, v := range r.vals {
		if !v.null {
			m[r.cols[i]] = v.String()
		}
	}
	return m
}

// Scan copies the row into dst: a pointer to a struct, or to a
// map[string]string (NULL columns are left out), map[string]Value or
// map[string]any (NULL is nil).
//
// A struct field receives the column named by its `hs:"name"` tag, or,
// without a tag, the column whose name equals the field's name ignoring
// case; `hs:"-"` skips a field, and columns without a field are ignored.
// Embedded structs are walked. A field may be a string, []byte (a copy),
// bool, any integer or float type, time.Time (DATETIME/DATE text), Value,
// any (string or nil), a pointer to one of these (nil for NULL), or
// implement sql.Scanner (given a string, or nil for NULL). NULL leaves a
// non-pointer field at its zero value.
//
// With several destinations, Scan assigns the values in order, as
// database/sql's Rows.Scan does: row.Scan(&id, &name).
func (r Row) Scan(dst ...any) error {
	if len(dst) == 1 {
		return scanRow(r, dst[0])
	}
	return scanValues(r, dst)
}
