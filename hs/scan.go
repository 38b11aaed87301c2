package hs

import (
	"database/sql"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	scannerType = reflect.TypeFor[sql.Scanner]()
	timeType    = reflect.TypeFor[time.Time]()
	valueType   = reflect.TypeFor[Value]()
)

// structInfo maps lower-cased column names to field index paths.
type structInfo struct {
	byTag  map[string][]int
	byName map[string][]int // lower-cased field names, for untagged fields
}

var structCache sync.Map // reflect.Type -> *structInfo

func structFields(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byTag: map[string][]int{}, byName: map[string][]int{}}
	var walk func(t reflect.Type, path []int)
	walk = func(t reflect.Type, path []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			p := append(append([]int(nil), path...), i)
			tag, hasTag := f.Tag.Lookup("hs")
			if tag == "-" {
				continue
			}
			if name, _, _ := strings.Cut(tag, ","); hasTag && name != "" {
				if f.IsExported() {
					if _, dup := si.byTag[name]; !dup {
						si.byTag[name] = p
					}
				}
				continue
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Type != timeType {
				walk(f.Type, p)
				continue
			}
			if !f.IsExported() {
				continue
			}
			lname := strings.ToLower(f.Name)
			if _, dup := si.byName[lname]; !dup {
				si.byName[lname] = p
			}
		}
	}
	walk(t, nil)
	v, _ := structCache.LoadOrStore(t, si)
	return v.(*structInfo)
}

// plan returns, for each column, the field path receiving it (nil: none).
func (si *structInfo) plan(cols []string) [][]int {
	out := make([][]int, len(cols))
	for i, c := range cols {
		if p, ok := si.byTag[c]; ok {
			out[i] = p
		} else if p, ok := si.byName[strings.ToLower(c)]; ok {
			out[i] = p
		}
	}
	return out
}

func scanResult(r *Result, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("hs: Scan needs a non-nil pointer, not %T", dst)
	}
	ev := rv.Elem()
	if ev.Kind() != reflect.Slice {
		if r.Len() == 0 {
			return ErrNotFound
		}
		return scanRow(r.Row(0), dst)
	}
	et := ev.Type().Elem()
	ptr := false
	if et.Kind() == reflect.Pointer {
		et, ptr = et.Elem(), true
	}
	switch et.Kind() {
	case reflect.Struct:
		plan := structFields(et).plan(r.cols)
		for i := 0; i < r.Len(); i++ {
			nv := reflect.New(et)
			if err := scanStruct(r.Row(i), nv.Elem(), plan); err != nil {
				return err
			}
			if !ptr {
				nv = nv.Elem()
			}
			ev.Set(reflect.Append(ev, nv))
		}
		return nil
	case reflect.Map:
		if ptr {
			break
		}
		for i := 0; i < r.Len(); i++ {
			nv := reflect.New(et)
			if err := scanMap(r.Row(i), nv.Interface()); err != nil {
				return err
			}
			ev.Set(reflect.Append(ev, nv.Elem()))
		}
		return nil
	}
	return fmt.Errorf("hs: cannot Scan rows into %T", dst)
}

func scanRow(row Row, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("hs: Scan needs a non-nil pointer, not %T", dst)
	}
	ev := rv.Elem()
	switch {
	case ev.Kind() == reflect.Map:
		return scanMap(row, dst)
	case ev.Kind() == reflect.Struct && ev.Type() != timeType && !rv.Type().Implements(scannerType):
		return scanStruct(row, ev, structFields(ev.Type()).plan(row.cols))
	}
	return scanValues(row, []any{dst})
}

func scanStruct(row Row, sv reflect.Value, plan [][]int) error {
	for i, path := range plan {
		if path == nil {
			continue
		}
		f := sv.FieldByIndex(path)
		if err := setField(f, row.vals[i]); err != nil {
			return fmt.Errorf("hs: column %s into field of type %s: %w", row.cols[i], f.Type(), err)
		}
	}
	return nil
}

func scanMap(row Row, dst any) error {
	switch m := dst.(type) {
	case *map[string]string:
		if *m == nil {
			*m = make(map[string]string, len(row.vals))
		}
		for i, v := range row.vals {
			if !v.null {
				(*m)[row.cols[i]] = v.String()
			}
		}
	case *map[string]Value:
		if *m == nil {
			*m = make(map[string]Value, len(row.vals))
		}
		for i, v := range row.vals {
			(*m)[row.cols[i]] = v
		}
	case *map[string]any:
		if *m == nil {
			*m = make(map[string]any, len(row.vals))
		}
		for i, v := range row.vals {
			if v.null {
				(*m)[row.cols[i]] = nil
			} else {
				(*m)[row.cols[i]] = v.String()
			}
		}
	default:
		return fmt.Errorf("hs: cannot Scan a row into %T (maps must be map[string]string, map[string]Value or map[string]any)", dst)
	}
	return nil
}

func scanValues(row Row, dst []any) error {
	if len(dst) != len(row.vals) {
		return fmt.Errorf("hs: Scan of a row of %d values into %d destinations", len(row.vals), len(dst))
	}
	for i, d := range dst {
		rv := reflect.ValueOf(d)
		if rv.Kind() != reflect.Pointer || rv.IsNil() {
			return fmt.Errorf("hs: Scan destination %d is not a non-nil pointer (%T)", i, d)
		}
		if err := setField(rv.Elem(), row.vals[i]); err != nil {
			return fmt.Errorf("hs: column %s into %T: %w", row.cols[i], d, err)
		}
	}
	return nil
}

// setField stores v into f.
func setField(f reflect.Value, v Value) error {
	if f.CanAddr() && f.Addr().Type().Implements(scannerType) {
		var src any
		if !v.null {
			src = v.String()
		}
		return f.Addr().Interface().(sql.Scanner).Scan(src)
	}
	t := f.Type()
	if t == valueType {
		f.Set(reflect.ValueOf(v))
		return nil
	}
	if t.Kind() == reflect.Pointer {
		if v.null {
			f.SetZero()
			return nil
		}
		nv := reflect.New(t.Elem())
		if err := setField(nv.Elem(), v); err != nil {
			return err
		}
		f.Set(nv)
		return nil
	}
	if v.null {
		f.SetZero()
		return nil
	}
	if t == timeType {
		tm, err := parseTime(v.String())
		if err != nil {
			return err
		}
		f.Set(reflect.ValueOf(tm))
		return nil
	}
	s := unsafeString(v.b)
	switch t.Kind() {
	case reflect.String:
		f.SetString(string(v.b))
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 {
			return fmt.Errorf("unsupported type")
		}
		f.SetBytes(append([]byte{}, v.b...))
	case reflect.Bool:
		switch s {
		case "1", "true", "TRUE", "True":
			f.SetBool(true)
		case "0", "false", "FALSE", "False", "":
			f.SetBool(false)
		default:
			n, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return err
			}
			f.SetBool(n != 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, t.Bits())
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(s, 10, t.Bits())
		if err != nil {
			return err
		}
		f.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(s, t.Bits())
		if err != nil {
			return err
		}
		f.SetFloat(n)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fmt.Errorf("unsupported type")
		}
		f.Set(reflect.ValueOf(string(v.b)))
	default:
		return fmt.Errorf("unsupported type")
	}
	return nil
}
