package engine

// Pass reports whether row, a row of t, passes f, as Find applies it.
// A caller that wants to see every row a find examines (to bound its
// work, as the HandlerSocket front does) gives Find no filters and
// applies them itself with Pass. Pass only reads f, t and row.
func (f *Filter) Pass(t *Table, row Row) bool { return f.pass(t, row) }
