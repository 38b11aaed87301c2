package sqlbackend

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// HandlerDB adds rules to go-mysql-server's analyzer. They are pure
// functions of the plan, safe for concurrent use.
//
// go-mysql-server evaluates LIKE on text only: a BINARY, VARBINARY or BLOB
// value that is not valid UTF-8 (HandlerSocket stores any bytes) makes it
// fail. MySQL compares binary strings byte by byte; an analyzer rule
// replaces every LIKE whose left side is binary by binaryLike, which does.

// Identifiers of HandlerDB's analyzer rules.
const (
	ruleBinaryLike        analyzer.RuleId = 10001
	ruleExplainRows       analyzer.RuleId = 10002
	ruleSchemaIsDB        analyzer.RuleId = 10004
	ruleAtomicFKs         analyzer.RuleId = 10005
	rulePKPrefix          analyzer.RuleId = 10006
	ruleShowPKPrefix      analyzer.RuleId = 10007
	ruleShowCreateDB      analyzer.RuleId = 10008
	ruleShowIndexSubPart  analyzer.RuleId = 10009
	ruleStatisticsSubPart analyzer.RuleId = 10010
	ruleRoutines          analyzer.RuleId = 10030 // stored functions
	ruleFKDepth           analyzer.RuleId = 10031
)

// installAfterAllRules adds the rules that must see every INSERT and
// UPDATE to go-mysql-server's last batch, once per process. That batch is
// the one list of rules that both the full analysis and the short one of
// a single-table INSERT ... VALUES or UPDATE run (after the projection of
// an INSERT's source is built); a builder's own rules are skipped by the
// short one.
var installAfterAllRules sync.Once

// NewAnalyzer returns go-mysql-server's analyzer over p with HandlerDB's
// rules (for embedding the backend in a go-mysql-server engine, as the
// server and the enginetest harness do).
func NewAnalyzer(p sql.DatabaseProvider) *analyzer.Analyzer {
	installAfterAllRules.Do(func() {
		analyzer.OnceAfterAll = append(analyzer.OnceAfterAll, analyzer.Rule{Id: ruleStoreValues, Apply: storeValuesRule})
	})
	hp, _ := p.(*Provider) // nil for another provider
	a := withAssign(withTruncate(analyzer.NewBuilder(p).
		AddPreAnalyzeRule(ruleTextIndexes, textIndexRule).
		AddPreAnalyzeRule(ruleScalarSubquery, scalarSubqueryRule).
		AddPreAnalyzeRule(ruleValues, valuesRule).
		AddPreAnalyzeRule(ruleCTETimeTypes, cteTimeTypesRule). // temporal.go
		AddPreAnalyzeRule(ruleTemporalTypes, temporalTypesRule).
		AddPreAnalyzeRule(ruleTemporalText, temporalTextRule).
		AddPreAnalyzeRule(ruleJSONPaths, jsonPathsRule). // jsonpath.go
		// Prefix indexes: see prefix.go. The two wrappers keep
		// go-mysql-server's rule ids; they run in the batch before.
		RemoveOnceBeforeRule(analyzer.ValidateCreateTableId).
		RemoveOnceBeforeRule(analyzer.ResolveAlterColumnId).
		AddPreAnalyzeRule(analyzer.ValidateCreateTableId, prefixCreateTableRule).
		AddPreAnalyzeRule(analyzer.ResolveAlterColumnId, prefixAlterRule).
		AddPreValidationRule(ruleExactAggregates, exactAggregatesRule).
		AddPostValidationRule(rulePKPrefix, pkPrefixRule).
		AddPostValidationRule(ruleShowPKPrefix, showCreatePKRule).
		AddPostValidationRule(ruleShowIndexSubPart, showIndexPrefixRule).
		AddPostValidationRule(ruleStatisticsSubPart, statisticsSubPartRule).
		AddPostValidationRule(ruleShowCreateDB, showCreateDatabaseRule).
		AddPostValidationRule(ruleBinaryLike, binaryLikeRule).
		AddPostValidationRule(ruleExplainRows, explainRowsRule).
		AddPostValidationRule(ruleFloatDiv, floatDivRule).
		AddPostValidationRule(ruleSchemaIsDB, schemaIsDatabaseRule).
		AddPostValidationRule(ruleAtomicFKs, atomicCreateTableRule).
		AddPostValidationRule(ruleMariaShow, mariaShowRule).
		AddPostValidationRule(ruleRoutines, routinesRule).
		AddPostValidationRule(ruleDropDatabase, dropDatabaseRule(hp)).
		Build())) // withAssign: uservar.go
	if hp != nil {
		hp.SetAnalyzer(a)
	}
	return a
}

// schemaIsDatabaseRule: in MySQL and MariaDB, CREATE SCHEMA is a synonym
// of CREATE DATABASE. go-mysql-server plans it as a schema of the current
// database (for servers whose databases hold schemas) and, without a
// current database, fails with "no database selected" before falling back
// to CREATE DATABASE. HandlerDB's databases hold no schemas: the rule
// plans CREATE SCHEMA as CREATE DATABASE.
func schemaIsDatabaseRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if cs, ok := n.(*plan.CreateSchema); ok && cs.CreateDB != nil {
			db := *cs.CreateDB
			return &db, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}

// explainRowsRule: go-mysql-server marks a query that reads one row by a
// unique key as returning at most one row, and its server then refuses
// more; EXPLAIN of such a query prints several lines of plan. The mark is
// dropped for EXPLAIN.
func explainRowsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qf == nil || !qf.IsSet(sql.QFlagMax1Row) {
		return n, transform.SameTree, nil
	}
	transform.Inspect(n, func(n sql.Node) bool {
		if _, ok := n.(*plan.DescribeQuery); ok {
			qf.Unset(sql.QFlagMax1Row)
			return false
		}
		return true
	})
	return n, transform.SameTree, nil
}

func binaryLikeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				l, ok := e.(*expression.Like)
				if !ok || !gtypes.IsBinaryType(l.LeftChild.Type()) {
					return e, transform.SameTree, nil
				}
				return &binaryLike{Like: l}, transform.NewTree, nil
			})
		})
	})
}

// binaryLike is LIKE matching bytes: '%' matches any run of bytes, '_' one
// byte, and the escape character makes the next byte literal.
type binaryLike struct {
	*expression.Like
}

var _ sql.Expression = (*binaryLike)(nil)

// Eval matches the left value against the pattern.
func (b *binaryLike) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	left, err := evalBytes(ctx, b.LeftChild, row)
	if err != nil || left == nil {
		return nil, err
	}
	pat, err := evalBytes(ctx, b.RightChild, row)
	if err != nil || pat == nil {
		return nil, err
	}
	esc := byte('\\')
	if b.Escape != nil {
		e, err := evalBytes(ctx, b.Escape, row)
		if err != nil {
			return nil, err
		}
		if len(e) > 0 {
			esc = e[0]
		}
	}
	return likeBytes(left, pat, esc), nil
}

// WithChildren keeps the replacement when the analyzer rebuilds the tree.
func (b *binaryLike) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := b.Like.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &binaryLike{Like: e.(*expression.Like)}, nil
}

func evalBytes(ctx *sql.Context, e sql.Expression, row sql.Row) ([]byte, error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if v, err = sql.UnwrapAny(ctx, v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case []byte:
		return x, nil
	case string:
		return []byte(x), nil
	}
	s, _, err := gtypes.LongBlob.Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	return s.([]byte), nil
}

// likeBytes reports whether s matches the LIKE pattern p byte by byte.
func likeBytes(s, p []byte, esc byte) bool {
	// Classic wildcard matching with one backtrack point for the last '%'.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			c := p[pi]
			switch {
			case c == '%':
				starP, starS = pi, si
				pi++
				continue
			case c == esc && pi+1 < len(p):
				if p[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			case c == '_' || c == s[si]:
				si, pi = si+1, pi+1
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}
