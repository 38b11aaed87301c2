package mariadb

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	gjson "github.com/dolthub/go-mysql-server/sql/expression/function/json"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// JSON_EXTRACT, JSON_LENGTH and JSON_CONTAINS_PATH on paths of members and array positions
// ($.a, $."a b", $[2], $.a[0].b), evaluated as MariaDB does:
// go-mysql-server gives `[]` for a member path on an array (where
// MariaDB finds nothing: NULL), fails or panics for a position on an
// object (MariaDB reads $[0] of a non-array as the value itself), and
// gives NULL for the length of an empty array (0), and finds $.a in
// [{"a":1}]. jsonPathsRule replaces the three functions by
// mariaJSONExtract, mariaJSONLength and mariaJSONContainsPath, which walk
// such paths themselves and leave any other path (wildcards, ranges,
// last) to go-mysql-server. The rule is a pure function of the plan; the
// replacements are immutable.

func jsonPathsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// (deep: a subquery that go-mysql-server unnests later is never
	// analyzed as one)
	n, same, err := everyExprDeep(n, jsonExpr)
	if err != nil {
		return n, transform.SameTree, err
	}
	n, sortSame, err := transform.NodeWithOpaque(n, jsonSortKeys)
	return n, same && sortSame, err
}

// jsonSortKeys orders JSON sort keys (ORDER BY JSON_EXTRACT(...)) as
// MariaDB orders them, by their text.
func jsonSortKeys(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	s, ok := n.(*plan.Sort)
	if !ok {
		return n, transform.SameTree, nil
	}
	var fields sql.SortFields
	for i, f := range s.SortFields {
		if !isJSONValue(f.Column) {
			continue
		}
		if fields == nil {
			fields = append(sql.SortFields(nil), s.SortFields...)
		}
		fields[i].Column = &jsonText{JSON: f.Column}
	}
	if fields == nil {
		return n, transform.SameTree, nil
	}
	return plan.NewSort(fields, s.Child), transform.NewTree, nil
}

// jsonExpr is jsonPathsRule's replacement of one expression.
func jsonExpr(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *gjson.JSONExtract:
		return &mariaJSONExtract{JSONExtract: x}, transform.NewTree, nil
	case *gjson.JsonLength:
		return &mariaJSONLength{JsonLength: x}, transform.NewTree, nil
	case *gjson.JSONContainsPath:
		return &mariaJSONContainsPath{JSONContainsPath: x}, transform.NewTree, nil
	}
	return jsonComparison(e)
}

// pathStep is one step of a simple path: a member name, or a position.
type pathStep struct {
	member string
	index  int // -1 for a member
}

// simplePath parses p ($ followed by .name, ."name" and [n] steps); ok is
// false for any other path.
func simplePath(p string) ([]pathStep, bool) {
	p = strings.TrimSpace(p)
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	var steps []pathStep
	for i := 1; i < len(p); {
		switch p[i] {
		case '.':
			i++
			if i < len(p) && p[i] == '"' {
				j := strings.IndexByte(p[i+1:], '"')
				if j < 0 || strings.ContainsRune(p[i+1:i+1+j], '\\') {
					return nil, false
				}
				steps = append(steps, pathStep{member: p[i+1 : i+1+j], index: -1})
				i += j + 2
				continue
			}
			j := i
			for j < len(p) && (p[j] == '_' || p[j] == '$' || p[j] >= 0x80 || (p[j] >= '0' && p[j] <= '9') || (p[j]|0x20 >= 'a' && p[j]|0x20 <= 'z')) {
				j++
			}
			if j == i {
				return nil, false // .* or nothing
			}
			steps = append(steps, pathStep{member: p[i:j], index: -1})
			i = j
		case '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, false
			}
			n, err := strconv.Atoi(strings.TrimSpace(p[i+1 : i+j]))
			if err != nil || n < 0 {
				return nil, false // *, last, ranges
			}
			steps = append(steps, pathStep{index: n})
			i += j + 1
		case ' ', '\t':
			i++
		default:
			return nil, false
		}
	}
	return steps, true
}

// walkPath follows steps in v (a value of encoding/json's), as MariaDB
// does: a position on a value that is no array reads the value itself
// at 0.
func walkPath(v interface{}, steps []pathStep) (interface{}, bool) {
	for _, s := range steps {
		if s.index < 0 {
			m, ok := v.(map[string]interface{})
			if !ok {
				return nil, false
			}
			if v, ok = m[s.member]; !ok {
				return nil, false
			}
			continue
		}
		if a, ok := v.([]interface{}); ok {
			if s.index >= len(a) {
				return nil, false
			}
			v = a[s.index]
		} else if s.index != 0 {
			return nil, false
		}
	}
	return v, true
}

// jsonDocValue evaluates e as a JSON document's value; ok is false when the
// document is not one (left to go-mysql-server's error).
func jsonDocValue(ctx *sql.Context, e sql.Expression, row sql.Row) (v interface{}, isNull, ok bool, err error) {
	x, err := e.Eval(ctx, row)
	if err != nil || x == nil {
		return nil, x == nil, err == nil, err
	}
	switch d := x.(type) {
	case string:
		if json.Unmarshal([]byte(d), &v) != nil {
			return nil, false, false, nil
		}
		return v, false, true, nil
	case []byte:
		if json.Unmarshal(d, &v) != nil {
			return nil, false, false, nil
		}
		return v, false, true, nil
	case sql.JSONWrapper:
		v, err := d.ToInterface()
		if err != nil {
			return nil, false, false, nil
		}
		return v, false, true, nil
	}
	return nil, false, false, nil
}

// pathsOf evaluates path expressions into simple paths; ok is false when
// one is not simple, null when one is NULL.
func pathsOf(ctx *sql.Context, row sql.Row, exprs []sql.Expression) (paths [][]pathStep, null, ok bool, err error) {
	for _, pe := range exprs {
		pv, err := pe.Eval(ctx, row)
		if err != nil {
			return nil, false, false, err
		}
		if pv == nil {
			return nil, true, true, nil
		}
		ps, _, err := gtypes.LongText.Convert(ctx, pv)
		if err != nil {
			return nil, false, false, nil
		}
		s, isStr := ps.(string)
		if !isStr {
			return nil, false, false, nil
		}
		steps, simple := simplePath(s)
		if !simple {
			return nil, false, false, nil
		}
		paths = append(paths, steps)
	}
	return paths, false, true, nil
}

// mariaJSONExtract is JSON_EXTRACT with simple paths walked as MariaDB does:
// nothing found is NULL, one path gives its value, several the array of
// the values found.
type mariaJSONExtract struct {
	*gjson.JSONExtract
}

var _ sql.FunctionExpression = (*mariaJSONExtract)(nil)

// WithChildren keeps the replacement.
func (j *mariaJSONExtract) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	ne, err := j.JSONExtract.WithChildren(c...)
	if err != nil {
		return nil, err
	}
	if x, ok := ne.(*gjson.JSONExtract); ok {
		return &mariaJSONExtract{JSONExtract: x}, nil
	}
	return ne, nil
}

// Eval walks simple paths, and leaves others to go-mysql-server.
func (j *mariaJSONExtract) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	doc, isNull, ok, err := jsonDocValue(ctx, j.JSON, row)
	if err != nil || isNull {
		return nil, err
	}
	if !ok {
		return j.JSONExtract.Eval(ctx, row)
	}
	paths, null, ok, err := pathsOf(ctx, row, j.Paths)
	if err != nil || null {
		return nil, err
	}
	if !ok {
		return j.JSONExtract.Eval(ctx, row)
	}
	var found []interface{}
	for _, p := range paths {
		if v, ok := walkPath(doc, p); ok {
			found = append(found, v)
		}
	}
	switch {
	case len(found) == 0:
		return nil, nil
	case len(paths) == 1:
		return gtypes.JSONDocument{Val: found[0]}, nil
	}
	return gtypes.JSONDocument{Val: found}, nil
}

// mariaJSONLength is JSON_LENGTH with a simple path walked as MariaDB does:
// NULL where the path finds nothing, 0 for an empty array or object.
type mariaJSONLength struct {
	*gjson.JsonLength
}

var _ sql.FunctionExpression = (*mariaJSONLength)(nil)

// WithChildren keeps the replacement.
func (j *mariaJSONLength) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	ne, err := j.JsonLength.WithChildren(c...)
	if err != nil {
		return nil, err
	}
	if x, ok := ne.(*gjson.JsonLength); ok {
		return &mariaJSONLength{JsonLength: x}, nil
	}
	return ne, nil
}

// Eval walks a simple path, and leaves another to go-mysql-server.
func (j *mariaJSONLength) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	doc, isNull, ok, err := jsonDocValue(ctx, j.JSON, row)
	if err != nil || isNull {
		return nil, err
	}
	if !ok {
		return j.JsonLength.Eval(ctx, row)
	}
	paths, null, ok, err := pathsOf(ctx, row, []sql.Expression{j.Path})
	if err != nil || null {
		return nil, err
	}
	if !ok {
		return j.JsonLength.Eval(ctx, row)
	}
	v, found := walkPath(doc, paths[0])
	if !found {
		return nil, nil
	}
	switch x := v.(type) {
	case []interface{}:
		return len(x), nil
	case map[string]interface{}:
		return len(x), nil
	}
	return 1, nil
}

// mariaJSONContainsPath is JSON_CONTAINS_PATH with simple paths walked as
// MariaDB does: a member path finds nothing in an array, a position on a
// value that is no array finds the value itself at 0.
type mariaJSONContainsPath struct {
	*gjson.JSONContainsPath
}

var _ sql.FunctionExpression = (*mariaJSONContainsPath)(nil)

// WithChildren keeps the replacement.
func (j *mariaJSONContainsPath) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	ne, err := j.JSONContainsPath.WithChildren(c...)
	if err != nil {
		return nil, err
	}
	if x, ok := ne.(*gjson.JSONContainsPath); ok {
		return &mariaJSONContainsPath{JSONContainsPath: x}, nil
	}
	return ne, nil
}

// Eval walks simple paths, and leaves others (and a mode that is neither
// 'one' nor 'all', an error) to go-mysql-server.
func (j *mariaJSONContainsPath) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	c := j.Children()
	doc, isNull, ok, err := jsonDocValue(ctx, c[0], row)
	if err != nil || isNull {
		return nil, err
	}
	if !ok {
		return j.JSONContainsPath.Eval(ctx, row)
	}
	mv, err := c[1].Eval(ctx, row)
	if err != nil || mv == nil {
		return nil, err
	}
	ms, _, err := gtypes.LongText.Convert(ctx, mv)
	if err != nil {
		return j.JSONContainsPath.Eval(ctx, row)
	}
	mode, _ := ms.(string)
	all := strings.EqualFold(strings.TrimSpace(mode), "all")
	if !all && !strings.EqualFold(strings.TrimSpace(mode), "one") {
		return j.JSONContainsPath.Eval(ctx, row)
	}
	paths, null, ok, err := pathsOf(ctx, row, c[2:])
	if err != nil || null {
		return nil, err
	}
	if !ok {
		return j.JSONContainsPath.Eval(ctx, row)
	}
	for _, p := range paths {
		_, found := walkPath(doc, p)
		if found && !all {
			return true, nil
		}
		if !found && all {
			return false, nil
		}
	}
	return all, nil
}
