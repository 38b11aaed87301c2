package storedprog

import (
	"errors"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// parseBody parses a function's parameters and body as the runner does.
func parseBody(t *testing.T, params, body string) *ast.ProcedureSpec {
	t.Helper()
	st, err := ast.Parse("CREATE PROCEDURE __hdb_compile(" + params + ") " + body)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return st.(*ast.DDL).ProcedureSpec
}

func columnType(ct *ast.ColumnType) (sql.Type, error) { return types.ColumnTypeToType(ct) }

// The bodies the compiler takes, and those it leaves to the interpreter
// (anything with an effect beyond its answer, or a construct it does not
// know), each with the operations it compiles to.
func TestCompileTakes(t *testing.T) {
	for _, c := range []struct {
		body string
		ops  int // -1: not compiled
	}{
		{"RETURN x + 1", 2},
		{"BEGIN DECLARE v INT DEFAULT 2; SET v = v * x; RETURN v; END", 4},
		{"BEGIN DECLARE a, b INT; SELECT 1, 2 INTO a, b; RETURN a + b; END", 5},
		{"BEGIN IF x > 0 THEN RETURN 1; ELSEIF x < 0 THEN RETURN -1; ELSE RETURN 0; END IF; END", 8},
		{"BEGIN DECLARE i INT DEFAULT 0; w: WHILE i < x DO SET i = i + 1; IF i = 3 THEN LEAVE w; END IF; END WHILE w; RETURN i; END", 9},
		{"BEGIN DECLARE i INT DEFAULT 0; REPEAT SET i = i + 1; UNTIL i >= x END REPEAT; RETURN i; END", 5},
		{"BEGIN DECLARE v INT; DECLARE EXIT HANDLER FOR NOT FOUND RETURN -1; SELECT x INTO v FROM dual WHERE 0; RETURN v; END", 7},
		{"BEGIN DECLARE v INT; DECLARE CONTINUE HANDLER FOR NOT FOUND SET v = 0; SELECT x INTO v FROM dual WHERE 0; RETURN v; END", 7},
		// left to the interpreter
		{"BEGIN SET @u = x; RETURN x; END", -1},
		{"BEGIN SET @@session.sql_mode = ''; RETURN x; END", -1},
		{"BEGIN SELECT x INTO @u; RETURN x; END", -1},
		{"BEGIN INSERT INTO t VALUES (x); RETURN x; END", -1},
		{"BEGIN DECLARE c CURSOR FOR SELECT 1; RETURN x; END", -1},
		{"BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION RETURN 0; RETURN x; END", -1},
		{"BEGIN DECLARE v INT; SELECT * INTO v FROM dual; RETURN v; END", -1},
		{"BEGIN DECLARE v INT; SELECT 1, 2 INTO v; RETURN v; END", -1},
		{"BEGIN CASE x WHEN 1 THEN RETURN 1; ELSE RETURN 2; END CASE; END", -1},
		{"BEGIN SIGNAL SQLSTATE '45000'; END", -1},
		{"BEGIN DECLARE v INT; DECLARE v INT; RETURN v; END", -1},
		{"BEGIN BEGIN DECLARE EXIT HANDLER FOR NOT FOUND RETURN 0; END; RETURN x; END", -1},
	} {
		p, err := compile("f", parseBody(t, "x INT", c.body), columnType)
		switch {
		case c.ops < 0 && !errors.Is(err, errNotCompiled):
			t.Errorf("%s: compiled (%v), want it left to the interpreter", c.body, err)
		case c.ops >= 0 && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.ops >= 0 && len(p.code) != c.ops:
			t.Errorf("%s: %d operations, want %d", c.body, len(p.code), c.ops)
		}
	}
}

// A name that is a variable in scope is the variable in every clause of a
// statement (a qualified name is a column), and an inner block's variable
// hides an outer one of the same name.
func TestCompileNames(t *testing.T) {
	p, err := compile("f", parseBody(t, "x INT, id INT",
		"BEGIN DECLARE n INT; BEGIN DECLARE x INT DEFAULT 5; SELECT COUNT(*) INTO n FROM t WHERE t.id = id AND x > (SELECT MAX(id) FROM u WHERE u.x = x); END; RETURN x; END"), columnType)
	if err != nil {
		t.Fatal(err)
	}
	var q *query
	for _, o := range p.code {
		if o.kind == opInto {
			q = o.query
		}
	}
	if q == nil {
		t.Fatal("no SELECT INTO compiled")
	}
	// id is parameter 1; the inner x (slot 3) hides the parameter x (0)
	if want := []int{1, 3}; len(q.slots) != 2 || q.slots[0] != want[0] || q.slots[1] != want[1] {
		t.Fatalf("variables of the SELECT: %v, want %v", q.slots, want)
	}
	if got := ast.String(q.stmt); got != "select COUNT(*) from t where t.id = id and x > (select MAX(id) from u where u.x = x)" {
		t.Fatalf("statement: %s", got)
	}
	ret := p.code[len(p.code)-2]
	if ret.kind != opReturn || len(ret.expr.slots) != 1 || ret.expr.slots[0] != 0 {
		t.Fatalf("RETURN x after the block reads %v, want the parameter (slot 0)", ret.expr.slots)
	}
}
