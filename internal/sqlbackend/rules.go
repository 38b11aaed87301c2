package sqlbackend

import (
	"strings"
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
	rulePKPrefix          analyzer.RuleId = 10011
	ruleShowPKPrefix      analyzer.RuleId = 10007
	ruleShowCreateDB      analyzer.RuleId = 10012
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
		// (before go-mysql-server's index assignment, which garbles the
		// RETURNING list of an INSERT into a table with checks)
		analyzer.OnceAfterAll = append([]analyzer.Rule{{Id: ruleReturning, Apply: returningRule}}, analyzer.OnceAfterAll...) // returning.go
		analyzer.OnceAfterAll = append(analyzer.OnceAfterAll,
			analyzer.Rule{Id: ruleStoreValues, Apply: storeValuesRule},
			analyzer.Rule{Id: ruleExactUpdate, Apply: exactUpdateRule},
			analyzer.Rule{Id: ruleOddDates, Apply: oddDatesRule},
			analyzer.Rule{Id: ruleFastConcat, Apply: fastConcatRule},                   // concatws.go
			analyzer.Rule{Id: ruleSizeGuard, Apply: sizeGuardRule},                     // sizeguard.go
			analyzer.Rule{Id: ruleBoundedRegexp, Apply: boundedRegexpRule},             // regexp.go
			analyzer.Rule{Id: ruleBoundedGroupConcat, Apply: boundedGroupConcatRule},   // groupconcat.go
			analyzer.Rule{Id: ruleBoundedJSONAgg, Apply: boundedJSONAggRule},           // jsonagg.go
			analyzer.Rule{Id: ruleFastCases, Apply: fastCasesRule},                     // fastcmp.go
			analyzer.Rule{Id: ruleSharedSubqueryAlias, Apply: sharedSubqueryAliasRule}, // sharedalias.go
			analyzer.Rule{Id: ruleSubqueryMemo, Apply: subqueryMemoRule},               // subquerymemo.go
			analyzer.Rule{Id: ruleRangeRead, Apply: rangeReadRule},                     // rangejoin.go
			analyzer.Rule{Id: ruleNotExistsJoin, Apply: notExistsJoinRule},             // notexists.go
			analyzer.Rule{Id: ruleReturningPlace, Apply: returningPlaceRule},           // returning.go
			analyzer.Rule{Id: ruleTopNLimits, Apply: topNLimitsRule})                   // limits.go
	})
	hp, _ := p.(*Provider) // nil for another provider
	a := withAssign(withSpatial(withMatch(withTruncate(analyzer.NewBuilder(p).
		AddPreAnalyzeRule(rulePreAnalyze, ruleBatch(
			analyzer.Rule{Id: ruleTextIndexes, Apply: textIndexRule},
			analyzer.Rule{Id: ruleMatchIndex, Apply: matchIndexRule},
			analyzer.Rule{Id: ruleSpatialWithin, Apply: spatialWithinRule},
			analyzer.Rule{Id: ruleAxisOrder, Apply: axisOrderRule},
			analyzer.Rule{Id: ruleScalarSubquery, Apply: scalarSubqueryRule},
			analyzer.Rule{Id: ruleValues, Apply: valuesRule},
			analyzer.Rule{Id: ruleCTETimeTypes, Apply: cteTimeTypesRule}, // temporal.go
			analyzer.Rule{Id: ruleTemporalTypes, Apply: temporalTypesRule},
			analyzer.Rule{Id: ruleTemporalText, Apply: temporalTextRule},
			analyzer.Rule{Id: ruleJSONPaths, Apply: jsonPathsRule},     // jsonpath.go
			analyzer.Rule{Id: ruleViewFilters, Apply: viewFiltersRule}, // viewfilter.go
			analyzer.Rule{Id: ruleEqualityTransfer, Apply: equalityTransferRule},
			analyzer.Rule{Id: ruleShowLike, Apply: showLikeRule},
			analyzer.Rule{Id: ruleHideLike, Apply: hideLikeRule},     // exactlike.go
			analyzer.Rule{Id: ruleJoinTables, Apply: joinTablesRule}, // guards.go
			analyzer.Rule{Id: ruleShowCreateOfView, Apply: showCreateOfViewRule},
			analyzer.Rule{Id: ruleLoadFile, Apply: loadFileRule},             // loadfile.go
			analyzer.Rule{Id: ruleDDLNames, Apply: ddlNamesRule},             // ddlnames.go
			analyzer.Rule{Id: ruleNotExistsMark, Apply: notExistsMarkRule})). // notexists.go
		// Prefix indexes: see prefix.go. The two wrappers keep
		// go-mysql-server's rule ids; they run in the batch before.
		RemoveOnceBeforeRule(analyzer.ValidateCreateTableId).
		RemoveOnceBeforeRule(analyzer.ResolveAlterColumnId).
		AddPreAnalyzeRule(analyzer.ValidateCreateTableId, prefixCreateTableRule).
		AddPreAnalyzeRule(analyzer.ResolveAlterColumnId, prefixAlterRule).
		AddPreAnalyzeRule(ruleOddInLists, oddInListsRule).
		AddPreValidationRule(ruleExactAggregates, exactAggregatesRule).
		AddPostValidationRule(rulePostValidation, gatedRuleBatch(
				gatedRule{analyzer.Rule{Id: rulePKPrefix, Apply: pkPrefixRule}, isNode[*plan.CreateTable]},
				gatedRule{analyzer.Rule{Id: ruleShowPKPrefix, Apply: showCreatePKRule}, isNode[*plan.ShowCreateTable]},
				gatedRule{analyzer.Rule{Id: ruleShowIndexSubPart, Apply: showIndexPrefixRule}, isNode[*plan.ShowIndexes]},
				gatedRule{analyzer.Rule{Id: ruleStatisticsSubPart, Apply: statisticsSubPartRule}, isInfoSchemaTable},
				gatedRule{analyzer.Rule{Id: ruleShowCreateDB, Apply: showCreateDatabaseRule}, isNode[*plan.ShowCreateDatabase]},
				gatedRule{analyzer.Rule{Id: ruleShowLikeAgain, Apply: showLikeAgainRule}, nil}, // exactlike.go
				gatedRule{analyzer.Rule{Id: ruleBinaryLike, Apply: binaryLikeRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleExplainRows, Apply: explainRowsRule}, isDescribeOrSetOp},
				gatedRule{analyzer.Rule{Id: ruleFloatDiv, Apply: floatDivRule}, isNode[*plan.InsertInto]},
				gatedRule{analyzer.Rule{Id: ruleSchemaIsDB, Apply: schemaIsDatabaseRule}, isNode[*plan.CreateSchema]},
				gatedRule{analyzer.Rule{Id: ruleAtomicFKs, Apply: atomicCreateTableRule}, isNode[*plan.CreateTable]},
				gatedRule{analyzer.Rule{Id: ruleMariaShow, Apply: mariaShowRule}, isShowOfTable},
				gatedRule{analyzer.Rule{Id: ruleRoutines, Apply: routinesRule}, isInfoSchemaTable},
				gatedRule{analyzer.Rule{Id: ruleDropDatabase, Apply: dropDatabaseRule(hp)}, isNode[*plan.DropDB]},
				gatedRule{analyzer.Rule{Id: ruleFirstMatch, Apply: firstMatchRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleDateDiff, Apply: dateDiffRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleTimeToSec, Apply: timeToSecRule}, nil}, // timetosec.go
				gatedRule{analyzer.Rule{Id: ruleISODates, Apply: isoDatesRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleTimeLiterals, Apply: timeLiteralsRule}, nil},       // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleDecimalExtremes, Apply: decimalExtremesRule}, nil}, // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleISOSortKeys, Apply: isoSortKeysRule}, nil},         // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleIntoFile, Apply: intoFileRule}, nil})).             // guards.go
		Build())))) // withAssign: uservar.go
	a.Coster = coster{a.Coster}        // coster.go
	MariaDBCheckConstraints(a.Catalog) // infoschema.go
	if hp != nil {
		hp.SetAnalyzer(a)
	}
	return a
}

// The analyzer runs HandlerDB's rules of one phase as one rule of its own
// (rulePreAnalyze, rulePostValidation): go-mysql-server spells the id of
// every rule it runs (RuleId.String, two allocations for an id it does not
// know) on every statement, so thirteen rules cost 26 allocations of a
// point select where one costs two.
const (
	rulePreAnalyze     analyzer.RuleId = 10040
	rulePostValidation analyzer.RuleId = 10041
)

// ruleBatch returns a rule that applies rules in order, each unless the
// selector skips its id, as go-mysql-server's batch does: on an error it
// returns the last node a rule made before it.
func ruleBatch(rules ...analyzer.Rule) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		return applyRules(ctx, a, n, scope, sel, qf, rules, ^uint64(0))
	}
}

// applyRules applies the rules whose bit is set in want (every rule past
// the 64th runs), in order, as ruleBatch describes.
func applyRules(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags, rules []analyzer.Rule, want uint64) (sql.Node, transform.TreeIdentity, error) {
	same := transform.SameTree
	for i, r := range rules {
		if (i < 64 && want&(1<<i) == 0) || !sel(r.Id) {
			continue
		}
		next, s, err := r.Apply(ctx, a, n, scope, sel, qf)
		if err != nil {
			return n, same, err
		}
		if next != nil {
			n = next
		}
		same = same && s
	}
	return n, same, nil
}

// gatedRule is a rule of a gated batch: gate reports whether a node of the
// plan is one the rule acts on (nil: every plan).
type gatedRule struct {
	analyzer.Rule
	gate func(sql.Node) bool
}

// gatedRuleBatch is ruleBatch for rules that act on nodes of a few kinds
// (CREATE TABLE, SHOW, ...): one walk over the plan's nodes, as the rules'
// own walks see them (children, opaque nodes included), finds the rules
// whose gate a node passes, and only those run. A point select walks its
// plan once instead of once per rule.
func gatedRuleBatch(rules ...gatedRule) analyzer.RuleFunc {
	all := make([]analyzer.Rule, len(rules))
	for i, r := range rules {
		all[i] = r.Rule
	}
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		var want uint64
		markGates(n, rules, &want)
		return applyRules(ctx, a, n, scope, sel, qf, all, want)
	}
}

// markGates sets bit i of want for each rule i whose gate n or a node
// under it passes (or that has no gate).
func markGates(n sql.Node, rules []gatedRule, want *uint64) {
	if n == nil {
		return
	}
	for i, r := range rules {
		if r.gate == nil || r.gate(n) {
			*want |= 1 << i
		}
	}
	for _, c := range n.Children() {
		markGates(c, rules, want)
	}
}

// isNode is a gate passing nodes of type T.
func isNode[T sql.Node](n sql.Node) bool {
	_, ok := n.(T)
	return ok
}

// isDescribeOrSetOp passes EXPLAIN and UNION / INTERSECT / EXCEPT.
func isDescribeOrSetOp(n sql.Node) bool {
	switch n.(type) {
	case *plan.DescribeQuery, *plan.SetOp:
		return true
	}
	return false
}

// isShowOfTable passes the SHOW statements mariaShowRule prints.
func isShowOfTable(n sql.Node) bool {
	switch n.(type) {
	case *plan.ShowCreateTable, *plan.ShowColumns, *plan.ShowIndexes:
		return true
	}
	return false
}

// isInfoSchemaTable passes a resolved table of information_schema.
func isInfoSchemaTable(n sql.Node) bool {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return false
	}
	db, ok := rt.Table.(sql.Databaseable)
	return (ok && strings.EqualFold(db.Database(), sql.InformationSchemaDatabaseName)) ||
		(rt.Database() != nil && strings.EqualFold(rt.Database().Name(), sql.InformationSchemaDatabaseName))
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
// more. The mark is wrong for EXPLAIN of such a query (several lines of
// plan) and for a set operation with such a branch (SELECT ... WHERE id > 1
// UNION SELECT ... WHERE id = 1 answered 1105 "max1Row iterator returned
// more than one row"): it is dropped for both.
func explainRowsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qf == nil || !qf.IsSet(sql.QFlagMax1Row) {
		return n, transform.SameTree, nil
	}
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case *plan.DescribeQuery, *plan.SetOp:
			qf.Unset(sql.QFlagMax1Row)
			return false
		}
		return true
	})
	return n, transform.SameTree, nil
}

func binaryLikeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		l, ok := e.(*expression.Like)
		if !ok || !gtypes.IsBinaryType(l.LeftChild.Type()) {
			return e, transform.SameTree, nil
		}
		return &binaryLike{Like: l}, transform.NewTree, nil
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

// everyExpr applies f to every expression, and each one's children, of
// every node of n, opaque nodes included: the walk of most of our
// expression rules.
// everyExprDeep is everyExpr over n and the plans of the subqueries its
// expressions hold, for rules that run before go-mysql-server unnests a
// subquery (IN (SELECT ...), EXISTS) into the plan: an unnested subquery
// is never analyzed on its own.
func everyExprDeep(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if sq, ok := e.(*plan.Subquery); ok && sq.Query != nil {
			q, same, err := everyExprDeep(sq.Query, f)
			if err != nil || same {
				return e, transform.SameTree, err
			}
			return sq.WithQuery(q), transform.NewTree, nil
		}
		return f(e)
	})
}

func everyExpr(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, f)
		})
	})
}
