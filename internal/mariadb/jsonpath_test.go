package mariadb

import "testing"

// TestJSONPaths: simple paths walked as MariaDB does; other paths are
// left to go-mysql-server.
func TestJSONPaths(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.ExpectRows(t, ctx, `SELECT JSON_EXTRACT('[1, 2]', '$.b'), JSON_EXTRACT('{"b": []}', '$.b'), JSON_EXTRACT('{"a": 1}', '$[0]'), JSON_EXTRACT('[1, [2, 3]]', '$[1][1]')`,
		`NULL|[]|{"a": 1}|3`)
	b.ExpectRows(t, ctx, `SELECT JSON_EXTRACT('{"a": [1, 2]}', '$.x', '$.a'), JSON_EXTRACT('{"a": 1}', '$.x', '$.y'), JSON_EXTRACT('{"a b": 3}', '$."a b"')`,
		`[[1, 2]]|NULL|3`)
	b.ExpectRows(t, ctx, `SELECT JSON_LENGTH('[]'), JSON_LENGTH('{"a": {}}', '$.a'), JSON_LENGTH('[1]', '$.x'), JSON_LENGTH('[1, 2, 3]')`, "0|0|NULL|3")
	// A wildcard is go-mysql-server's.
	b.ExpectRows(t, ctx, `SELECT JSON_EXTRACT('{"a": 1, "b": 2}', '$.*')`, "[1, 2]")
	for _, c := range []struct {
		path   string
		simple bool
		steps  int
	}{{"$", true, 0}, {"$.a[2].b", true, 3}, {`$."x y"[0]`, true, 2}, {"$[*]", false, 0}, {"$.a[last]", false, 0}, {"$**.a", false, 0}, {"a", false, 0}} {
		steps, ok := simplePath(c.path)
		if ok != c.simple || len(steps) != c.steps {
			t.Errorf("%s: %v %v", c.path, steps, ok)
		}
	}
}
