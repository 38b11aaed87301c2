package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A TemplateLearner makes and confirms the PlanTemplate of one statement
// (for one signature of its parameters' types) from the analyses of its
// executions, for a caller that runs the statement many times with other
// values: sqlfront's prepared statements and the statements of compiled
// stored functions (storedprog).
//
// The template is used only after a second analysis confirmed it: an
// execution whose parameter values all differ from the template's
// (where they are lookup bounds) is analyzed as usual and its plan must
// equal the template instantiated with its values. A statement that
// fails to make a confirmed template TemplateTries times tries again only
// at its 2^k-th execution.
//
// A TemplateLearner belongs to one session (it is not safe for
// concurrent use).
type TemplateLearner struct {
	t          *PlanTemplate
	vals       []any // the parameter values t was made with
	confirmed  bool
	fails      int // templates refused or not confirmed
	valueFails int // templates refused for an execution's values
	waits      int // confirmations put off for a lookup bound's repeated value
	execs      int // executions seen
}

// TemplateTries bounds the templates one statement may fail to make or
// confirm before it tries only at its 2^k-th execution; valueTries bounds
// the refusals for an execution's values (two parameters of one value, a
// lookup found empty) not counted among them.
const (
	TemplateTries = 3
	valueTries    = 16
)

// Template returns the confirmed template, nil before confirmation.
func (l *TemplateLearner) Template() *PlanTemplate {
	if l.confirmed {
		return l.t
	}
	return nil
}

// Next counts an execution and reports whether, with no confirmed
// template, it should be analyzed to learn one (after TemplateTries
// failures, only executions 2^k are: a statement whose values happened to
// be unfit, two parameters of one value, is not given up for good, and
// one that never fits costs a few analyses more, not one per run).
func (l *TemplateLearner) Next() (learn bool) {
	l.execs++
	return l.confirmed || l.fails < TemplateTries || l.execs&(l.execs-1) == 0
}

// Learn uses the analysis of one execution (bound, Bound of the binder's
// plan with the parameters' literals lits in it, and analyzed) to confirm
// the template or to make one. spread, when not nil, analyzes the
// statement again with the literals of SpreadLiterals(lits), for when the
// values hide where each went.
func (l *TemplateLearner) Learn(ctx *sql.Context, bound BoundPlan, analyzed sql.Node, lits []*expression.Literal, spread func(lits []*expression.Literal) (bound BoundPlan, analyzed sql.Node, ok bool)) {
	if l.confirmed {
		return
	}
	vals := literalValues(ctx, lits)
	if l.t != nil {
		for i, v := range vals {
			if l.t.InLookup(i) && (v == nil || l.vals[i] == nil || sameValue(v, l.vals[i])) {
				// not an independent check of that bound: wait for other
				// values, a while
				if l.waits++; l.waits > valueTries {
					l.t, l.vals = nil, nil
					l.fails = TemplateTries
				}
				return
			}
		}
		n, ok, err := l.t.Instantiate(ctx, lits)
		if err == nil && !ok {
			return // values the template does not take: wait for others
		}
		if err == nil && sql.DebugString(n) == sql.DebugString(analyzed) {
			l.confirmed = true
			return
		}
		l.t, l.vals = nil, nil
		l.fails++
	}
	t, ok, byValues := NewPlanTemplate(ctx, bound, analyzed, lits)
	if !ok && byValues && spread != nil {
		// values that overlap or repeat (sysbench's clustered ranges
		// do, most of the time) hide where each went: analyze once with
		// values that do not
		if slits, sok := SpreadLiterals(ctx, lits); sok {
			if sbound, sanalyzed, sok := spread(slits); sok {
				if t, ok, _ = NewPlanTemplate(ctx, sbound, sanalyzed, slits); ok {
					vals = literalValues(ctx, slits)
				}
			}
		}
	}
	if !ok {
		if byValues && l.valueFails < valueTries {
			l.valueFails++
		} else {
			l.fails++
		}
		return
	}
	l.t, l.vals = t, vals
}

// SpreadLiterals returns integer literals 1, 2, 3... of the types of lits,
// in order (so BETWEEN ? AND ? OR BETWEEN ? AND ? has distinct, disjoint
// ranges); ok is false unless every literal is an integer.
func SpreadLiterals(ctx *sql.Context, lits []*expression.Literal) (spread []*expression.Literal, ok bool) {
	spread = make([]*expression.Literal, len(lits))
	for i, l := range lits {
		if !types.IsInteger(l.Type()) {
			return nil, false
		}
		v, _, err := l.Type().Convert(ctx, int64(i+1))
		if err != nil {
			return nil, false
		}
		spread[i] = expression.NewLiteral(v, l.Type())
	}
	return spread, true
}

// literalValues returns the literals' values (nil for NULL).
func literalValues(ctx *sql.Context, lits []*expression.Literal) []any {
	vals := make([]any, len(lits))
	for i, l := range lits {
		vals[i], _ = l.Eval(ctx, nil)
	}
	return vals
}

// sameValue reports whether two parameter values of one type are equal
// (byte strings compared as strings; the literals of parameters hold no
// other uncomparable values).
func sameValue(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && string(x) == string(y)
	}
	return a == b
}
