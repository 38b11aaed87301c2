package storedprog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// errNotCompiled is the reason a body stays with the interpreter.
var errNotCompiled = errors.New("storedprog: not compiled")

// notCompiled returns errNotCompiled with what was met.
func notCompiled(what string) error { return fmt.Errorf("%w: %s", errNotCompiled, what) }

// variable is a parameter or local variable of a program.
type variable struct {
	name string
	typ  sql.Type
}

// opKind is what an operation does.
type opKind uint8

const (
	opSet        opKind = iota // vars[target[0]] = expr (nil expr: NULL)
	opInto                     // run query; its one row into target
	opJumpUnless               // go to jump unless expr is true
	opJumpIf                   // go to jump if expr is true
	opJump                     // go to jump
	opReturn                   // return expr
	opEnd                      // the end of the body: no RETURN was met
)

// op is one operation of a program.
type op struct {
	kind   opKind
	expr   *expr  // opSet, opJumpUnless, opJumpIf, opReturn
	query  *query // opInto
	target []int  // the variables set
	jump   int
}

// expr is an expression of the body: "SELECT expr" to bind, with the
// variables it names put in as v1, v2... (slots[i] is the variable of
// v(i+1)). A bound expression free of subqueries is evaluated as it is
// (eval); one with a subquery runs as a query.
type expr struct {
	stmt  *ast.Select
	slots []int
	eval  sql.Expression // set at the first run
	asQry *query         // the expression as a query (subqueries)
}

// query is a SELECT of the body (INTO taken off) with the variables it
// names as parameters v1, v2... (slots), and the plan templates learnt
// for it, by which of its parameters are NULL.
type query struct {
	stmt      *ast.Select
	slots     []int
	learners  map[uint64]*learner
	ncols     int // the columns the SELECT lists
	exprQuery bool
}

// handler is the NOT FOUND handler of the outermost block.
type handler struct {
	exit bool // EXIT (else CONTINUE)
	at   int  // the handler's code; it ends with a jump back (CONTINUE) or to the end
}

// program is a compiled function.
type program struct {
	name     string
	vars     []variable // the parameters first
	nparams  int
	code     []op
	notFound *handler
	// vals are the variables' values during a call
	vals []any
}

// compiler turns a body into a program.
type compiler struct {
	p      *program
	scopes []map[string]int // innermost last
	labels []label
	// typeOf makes a variable's type from its declaration
	typeOf func(ct *ast.ColumnType) (sql.Type, error)
}

// label is a labelled statement being compiled: LEAVE jumps to its end
// (patched when it is known), ITERATE to its start (loops only).
type label struct {
	name   string
	loop   bool
	start  int
	leaves []int // operations whose jump is the end
}

// compile makes the program of a function whose parameters and body the
// parser read as those of a procedure (spec).
func compile(name string, spec *ast.ProcedureSpec, typeOf func(ct *ast.ColumnType) (sql.Type, error)) (*program, error) {
	c := &compiler{p: &program{name: name}, typeOf: typeOf}
	c.scopes = []map[string]int{{}}
	for _, prm := range spec.Params {
		if prm.Direction != "" && prm.Direction != ast.ProcedureParamDirection_In {
			return nil, notCompiled("an OUT parameter")
		}
		if err := c.declare(prm.Name, &prm.Type); err != nil {
			return nil, err
		}
	}
	c.p.nparams = len(c.p.vars)
	if err := c.stmt(spec.Body, true); err != nil {
		return nil, err
	}
	c.emit(op{kind: opEnd})
	c.p.vals = make([]any, len(c.p.vars))
	return c.p, nil
}

func (c *compiler) emit(o op) int {
	c.p.code = append(c.p.code, o)
	return len(c.p.code) - 1
}

// declare adds a variable to the innermost scope.
func (c *compiler) declare(name string, ct *ast.ColumnType) error {
	typ, err := c.typeOf(ct)
	if err != nil {
		return notCompiled("type " + ct.Type)
	}
	key := strings.ToLower(name)
	scope := c.scopes[len(c.scopes)-1]
	if _, dup := scope[key]; dup {
		return notCompiled("a variable declared twice")
	}
	scope[key] = len(c.p.vars)
	c.p.vars = append(c.p.vars, variable{name: name, typ: typ})
	return nil
}

// lookup returns the slot of the variable name in scope, -1 if none.
func (c *compiler) lookup(name string) int {
	key := strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if slot, ok := c.scopes[i][key]; ok {
			return slot
		}
	}
	return -1
}

// stmts compiles a list of statements.
func (c *compiler) stmts(list ast.Statements) error {
	for _, s := range list {
		if err := c.stmt(s, false); err != nil {
			return err
		}
	}
	return nil
}

// stmt compiles one statement; outer is the body's own statement.
func (c *compiler) stmt(s ast.Statement, outer bool) error {
	switch s := s.(type) {
	case *ast.BeginEndBlock:
		return c.block(s, outer)
	case *ast.Declare:
		return notCompiled("DECLARE after a statement")
	case *ast.Set:
		for _, e := range s.Exprs {
			if e.Scope != ast.SetScope_None || e.Name == nil || !e.Name.Qualifier.IsEmpty() {
				return notCompiled("SET of a user or system variable")
			}
			slot := c.lookup(e.Name.Name.String())
			if slot < 0 {
				return notCompiled("SET of a system variable")
			}
			x, err := c.expr(e.Expr)
			if err != nil {
				return err
			}
			c.emit(op{kind: opSet, expr: x, target: []int{slot}})
		}
		return nil
	case *ast.Select:
		return c.selectInto(s)
	case *ast.Return:
		x, err := c.expr(s.Expr)
		if err != nil {
			return err
		}
		c.emit(op{kind: opReturn, expr: x})
		return nil
	case *ast.IfStatement:
		var ends []int
		for _, cond := range s.Conditions {
			x, err := c.expr(cond.Expr)
			if err != nil {
				return err
			}
			skip := c.emit(op{kind: opJumpUnless, expr: x})
			if err := c.scoped(cond.Statements); err != nil {
				return err
			}
			ends = append(ends, c.emit(op{kind: opJump}))
			c.p.code[skip].jump = len(c.p.code)
		}
		if err := c.scoped(s.Else); err != nil {
			return err
		}
		for _, e := range ends {
			c.p.code[e].jump = len(c.p.code)
		}
		return nil
	case *ast.While:
		x, err := c.expr(s.Condition)
		if err != nil {
			return err
		}
		return c.loop(s.Label, func(start int) error {
			exit := c.emit(op{kind: opJumpUnless, expr: x})
			c.labels[len(c.labels)-1].leaves = append(c.labels[len(c.labels)-1].leaves, exit)
			if err := c.scoped(s.Statements); err != nil {
				return err
			}
			c.emit(op{kind: opJump, jump: start})
			return nil
		})
	case *ast.Repeat:
		x, err := c.expr(s.Condition)
		if err != nil {
			return err
		}
		return c.loop(s.Label, func(start int) error {
			if err := c.scoped(s.Statements); err != nil {
				return err
			}
			c.emit(op{kind: opJumpUnless, expr: x, jump: start})
			return nil
		})
	case *ast.Loop:
		return c.loop(s.Label, func(start int) error {
			if err := c.scoped(s.Statements); err != nil {
				return err
			}
			c.emit(op{kind: opJump, jump: start})
			return nil
		})
	case *ast.Leave:
		l := c.label(s.Label)
		if l == nil {
			return notCompiled("LEAVE of an unknown label")
		}
		l.leaves = append(l.leaves, c.emit(op{kind: opJump}))
		return nil
	case *ast.Iterate:
		l := c.label(s.Label)
		if l == nil || !l.loop {
			return notCompiled("ITERATE of an unknown loop")
		}
		c.emit(op{kind: opJump, jump: l.start})
		return nil
	}
	return notCompiled(fmt.Sprintf("a %T", s))
}

// label finds a labelled statement being compiled.
func (c *compiler) label(name string) *label {
	for i := len(c.labels) - 1; i >= 0; i-- {
		if strings.EqualFold(c.labels[i].name, name) {
			return &c.labels[i]
		}
	}
	return nil
}

// loop compiles a loop whose body body emits (start is the loop's first
// operation); LEAVE of its label jumps past it.
func (c *compiler) loop(name string, body func(start int) error) error {
	start := len(c.p.code)
	c.labels = append(c.labels, label{name: name, loop: true, start: start})
	if err := body(start); err != nil {
		return err
	}
	c.closeLabel()
	return nil
}

// closeLabel ends the innermost labelled statement: its LEAVEs jump here.
func (c *compiler) closeLabel() {
	l := c.labels[len(c.labels)-1]
	for _, i := range l.leaves {
		c.p.code[i].jump = len(c.p.code)
	}
	c.labels = c.labels[:len(c.labels)-1]
}

// scoped compiles statements in a scope of their own (the branches of IF
// and the bodies of loops declare nothing, but BEGIN blocks in them do).
func (c *compiler) scoped(list ast.Statements) error { return c.stmts(list) }

// block compiles BEGIN ... END: its declarations, then its statements.
func (c *compiler) block(b *ast.BeginEndBlock, outer bool) error {
	c.scopes = append(c.scopes, map[string]int{})
	defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	c.labels = append(c.labels, label{name: b.Label})
	i := 0
	for ; i < len(b.Statements); i++ {
		d, ok := b.Statements[i].(*ast.Declare)
		if !ok {
			break
		}
		switch {
		case d.Variables != nil:
			var def *expr
			if d.Variables.VarType.Default != nil {
				x, err := c.expr(d.Variables.VarType.Default)
				if err != nil {
					return err
				}
				def = x
			}
			// the DEFAULT is evaluated before the names are in scope
			for _, n := range d.Variables.Names {
				if err := c.declare(n.String(), &d.Variables.VarType); err != nil {
					return err
				}
				c.emit(op{kind: opSet, expr: def, target: []int{len(c.p.vars) - 1}})
			}
		case d.Handler != nil:
			if !outer || c.p.notFound != nil || len(d.Handler.ConditionValues) != 1 ||
				d.Handler.ConditionValues[0].ValueType != ast.DeclareHandlerCondition_NotFound {
				return notCompiled("a handler other than one NOT FOUND handler of the body")
			}
			h := &handler{}
			switch d.Handler.Action {
			case ast.DeclareHandlerAction_Exit:
				h.exit = true
			case ast.DeclareHandlerAction_Continue:
			default:
				return notCompiled("an UNDO handler")
			}
			// the handler's code, skipped in the normal flow
			skip := c.emit(op{kind: opJump})
			h.at = len(c.p.code)
			c.p.notFound = h
			if err := c.stmt(d.Handler.Statement, false); err != nil {
				return err
			}
			if h.exit {
				// an EXIT handler of the body leaves it
				c.labels[len(c.labels)-1].leaves = append(c.labels[len(c.labels)-1].leaves, c.emit(op{kind: opJump}))
			} else {
				c.emit(op{kind: opJump, jump: -1}) // back to the statement after the one that raised it
			}
			c.p.code[skip].jump = len(c.p.code)
		default:
			return notCompiled("a DECLARE of a condition or cursor")
		}
	}
	if err := c.stmts(b.Statements[i:]); err != nil {
		return err
	}
	c.closeLabel()
	return nil
}

// selectInto compiles SELECT ... INTO local variables.
func (c *compiler) selectInto(s *ast.Select) error {
	if s.Into == nil || s.Into.Outfile != "" || s.Into.Dumpfile != "" || len(s.Into.Variables) == 0 {
		return notCompiled("a SELECT that returns a result set")
	}
	var target []int
	for _, v := range s.Into.Variables {
		name := v.String()
		if strings.HasPrefix(name, "@") {
			return notCompiled("SELECT INTO a user variable")
		}
		slot := c.lookup(name)
		if slot < 0 {
			return notCompiled("SELECT INTO an unknown variable")
		}
		target = append(target, slot)
	}
	for _, e := range s.SelectExprs {
		if _, ok := e.(*ast.AliasedExpr); !ok {
			return notCompiled("SELECT * INTO")
		}
	}
	if len(s.SelectExprs) != len(target) {
		return notCompiled("SELECT INTO of another number of columns")
	}
	s.Into = nil
	if s.Lock != "" {
		return notCompiled("a locking SELECT")
	}
	q := &query{stmt: s, ncols: len(target)}
	var err error
	if q.slots, err = c.params(s); err != nil {
		return err
	}
	c.emit(op{kind: opInto, query: q, target: target})
	return nil
}

// expr compiles an expression of the body.
func (c *compiler) expr(e ast.Expr) (*expr, error) {
	stmt := &ast.Select{SelectExprs: ast.SelectExprs{&ast.AliasedExpr{Expr: e}}}
	x := &expr{stmt: stmt}
	slots, err := c.params(stmt)
	if err != nil {
		return nil, err
	}
	x.slots = slots
	if hasSubquery(stmt) {
		x.asQry = &query{stmt: stmt, slots: slots, ncols: 1, exprQuery: true}
	}
	return x, nil
}

// params puts the variables a statement names in as parameters v1, v2...
// (a name that is a variable in scope is the variable, in every clause)
// and returns the variable of each.
func (c *compiler) params(stmt ast.SQLNode) ([]int, error) {
	var slots []int
	index := map[int]int{}
	var bad error
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *ast.ColName:
			if n == nil || !n.Qualifier.IsEmpty() {
				return true, nil
			}
			slot := c.lookup(n.Name.String())
			if slot < 0 {
				return true, nil
			}
			i, ok := index[slot]
			if !ok {
				i = len(slots)
				index[slot] = i
				slots = append(slots, slot)
			}
			n.StoredProcVal = ast.NewValArg([]byte(":v" + strconv.Itoa(i+1)))
		case *ast.Into:
			if n != nil {
				bad = notCompiled("INTO in a subquery")
			}
		}
		return true, nil
	}, stmt)
	return slots, bad
}

// hasSubquery reports whether a statement holds a subquery.
func hasSubquery(stmt ast.SQLNode) bool {
	found := false
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		if sq, ok := node.(*ast.Subquery); ok && sq != nil {
			found = true
			return false, nil
		}
		return true, nil
	}, stmt)
	return found
}
