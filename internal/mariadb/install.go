package mariadb

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/plan"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// installAfterAllRules adds, once per process, the rules that must see
// every INSERT and UPDATE to go-mysql-server's last batch. That batch is
// the one list of rules that both the full analysis and the short one of
// a single-table INSERT ... VALUES or UPDATE run (after the projection of
// an INSERT's source is built); a builder's own rules are skipped by the
// short one.
var installAfterAllRules sync.Once

// This file is the one place that registers the dialect's rules and
// changes go-mysql-server's package globals (NewAnalyzer and
// InstallPrinting; nothing of the dialect runs in an init function).

var installPrinting sync.Once

// InstallPrinting makes go-mysql-server print SHOW CREATE TABLE
// (schemaformat.go) and fill information_schema.COLUMNS
// (sqlbackend/infoschema.go) as MariaDB does, for every engine of the
// process; the SQL front calls it before it serves. The enginetest
// harness leaves it out: go-mysql-server's own tests expect its printing.
// Safe for concurrent use; the first call does it.
func InstallPrinting() {
	installPrinting.Do(func() {
		if f, ok := sql.GlobalSchemaFormatter.(*sql.MySqlSchemaFormatter); ok {
			sql.GlobalSchemaFormatter = mariaFormatter{f}
		}
		information_schema.NewColumnsTable = sqlbackend.MariaDBColumns(information_schema.NewColumnsTable)
	})
}

// NewAnalyzer is the dialect's install: it returns go-mysql-server's
// analyzer over p with every rule of HandlerDB registered (the dialect's
// and the storage rules the backend exports), its functions (TRUNCATE,
// MATCH, the spatial ones, := ) and its join coster, and adds the rules of
// go-mysql-server's last batch on its first call. The server and the enginetest harness
// build their engines with it. Safe for concurrent use.
func NewAnalyzer(p sql.DatabaseProvider) *analyzer.Analyzer {
	installAfterAllRules.Do(func() {
		installSessionVars() // sessionvars.go
		// (after go-mysql-server's simplifyFilters, which folds variables
		// and constant arithmetic into literals, before the lookups are
		// planned)
		analyzer.AlwaysBeforeDefault = append(analyzer.AlwaysBeforeDefault, analyzer.Rule{Id: ruleIntRange, Apply: intRangeRule}) // intrange.go
		// (before go-mysql-server's index assignment, which garbles the
		// RETURNING list of an INSERT into a table with checks)
		analyzer.OnceAfterAll = append([]analyzer.Rule{{Id: ruleReturning, Apply: returningRule}}, analyzer.OnceAfterAll...) // returning.go
		analyzer.OnceAfterAll = append(analyzer.OnceAfterAll,
			analyzer.Rule{Id: ruleFKDepth, Apply: sqlbackend.FKDepthRule}, // fk.go
			analyzer.Rule{Id: ruleStoreValues, Apply: sqlbackend.StoreValuesRule(replaceValueExpr)},
			analyzer.Rule{Id: ruleExactUpdate, Apply: sqlbackend.ExactUpdateRule},
			analyzer.Rule{Id: ruleOddDates, Apply: oddDatesRule},
			analyzer.Rule{Id: ruleFastConcat, Apply: fastConcatRule},                   // concatws.go
			analyzer.Rule{Id: ruleSizeGuard, Apply: sizeGuardRule},                     // sizeguard.go
			analyzer.Rule{Id: ruleBoundedRegexp, Apply: boundedRegexpRule},             // regexp.go
			analyzer.Rule{Id: ruleBoundedGroupConcat, Apply: boundedGroupConcatRule},   // groupconcat.go
			analyzer.Rule{Id: ruleBoundedJSONAgg, Apply: boundedJSONAggRule},           // jsonagg.go
			analyzer.Rule{Id: ruleFastCases, Apply: fastCasesRule},                     // fastcmp.go
			analyzer.Rule{Id: ruleSharedSubqueryAlias, Apply: sharedSubqueryAliasRule}, // sharedalias.go
			analyzer.Rule{Id: ruleSubqueryMemo, Apply: subqueryMemoRule},               // subquerymemo.go
			analyzer.Rule{Id: ruleRangeRead, Apply: sqlbackend.RangeReadRule},          // rangejoin.go
			analyzer.Rule{Id: ruleNotExistsJoin, Apply: notExistsJoinRule},             // notexists.go
			analyzer.Rule{Id: ruleReturningPlace, Apply: returningPlaceRule},           // returning.go
			analyzer.Rule{Id: ruleTopNLimits, Apply: topNLimitsRule},                   // limits.go
			analyzer.Rule{Id: ruleOrderedGroup, Apply: orderedGroupRule},               // orderedgroup.go
			analyzer.Rule{Id: ruleKeyedSort, Apply: keyedSortRule},                     // keyedsort.go
			analyzer.Rule{Id: ruleKeyedGroup, Apply: keyedGroupRule},                   // keyedgroup.go
			analyzer.Rule{Id: ruleMergeNulls, Apply: mergeNullsRule},                   // mergenulls.go
			analyzer.Rule{Id: ruleWindowKeys, Apply: windowKeysRule},                   // windowkeys.go
			analyzer.Rule{Id: ruleRangeFrames, Apply: rangeFramesRule},                 // rangeframe.go
			analyzer.Rule{Id: ruleScanFilter, Apply: sqlbackend.ScanFilterRule})        // scanfilter.go: last
	})
	hp, _ := p.(*sqlbackend.Provider) // nil for another provider
	a := withAssign(withSpatial(sqlbackend.WithMatch(withTruncate(analyzer.NewBuilder(p).
		AddPreAnalyzeRule(rulePreAnalyze, ruleBatch(
			analyzer.Rule{Id: ruleClock, Apply: clockRule}, // clock.go: before the rules that read types
			analyzer.Rule{Id: ruleTextIndexes, Apply: sqlbackend.TextIndexRule},
			analyzer.Rule{Id: ruleMatchIndex, Apply: sqlbackend.MatchIndexRule},
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
		AddPreAnalyzeRule(analyzer.ValidateCreateTableId, sqlbackend.PrefixCreateTableRule).
		AddPreAnalyzeRule(analyzer.ResolveAlterColumnId, sqlbackend.PrefixAlterRule).
		AddPreAnalyzeRule(ruleOddInLists, oddInListsRule).
		AddPreValidationRule(ruleExactAggregates, exactAggregatesRule).
		AddPostValidationRule(rulePostValidation, gatedRuleBatch(
				gatedRule{analyzer.Rule{Id: ruleReadOnly, Apply: readOnlyRule}, writesOrDDL}, // readonly.go
				gatedRule{analyzer.Rule{Id: rulePKPrefix, Apply: sqlbackend.PKPrefixRule}, isNode[*plan.CreateTable]},
				gatedRule{analyzer.Rule{Id: ruleShowPKPrefix, Apply: sqlbackend.ShowCreatePKRule}, isNode[*plan.ShowCreateTable]},
				gatedRule{analyzer.Rule{Id: ruleShowIndexSubPart, Apply: sqlbackend.ShowIndexPrefixRule}, isNode[*plan.ShowIndexes]},
				gatedRule{analyzer.Rule{Id: ruleStatisticsSubPart, Apply: sqlbackend.StatisticsSubPartRule}, isInfoSchemaTable},
				gatedRule{analyzer.Rule{Id: ruleShowCreateDB, Apply: sqlbackend.ShowCreateDatabaseRule}, isNode[*plan.ShowCreateDatabase]},
				gatedRule{analyzer.Rule{Id: ruleShowGrants, Apply: showGrantsRule}, isNode[*plan.ShowGrants]}, // showgrants.go
				gatedRule{analyzer.Rule{Id: ruleShowLikeAgain, Apply: showLikeAgainRule}, nil},                // exactlike.go
				gatedRule{analyzer.Rule{Id: ruleBinaryLike, Apply: binaryLikeRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleExplainRows, Apply: explainRowsRule}, isDescribeOrSetOp},
				gatedRule{analyzer.Rule{Id: ruleFloatDiv, Apply: floatDivRule}, isNode[*plan.InsertInto]},
				gatedRule{analyzer.Rule{Id: ruleSchemaIsDB, Apply: schemaIsDatabaseRule}, isNode[*plan.CreateSchema]},
				gatedRule{analyzer.Rule{Id: ruleAtomicFKs, Apply: sqlbackend.AtomicCreateTableRule}, isNode[*plan.CreateTable]},
				gatedRule{analyzer.Rule{Id: ruleMariaShow, Apply: sqlbackend.MariaShowRule}, isShowOfTable},
				gatedRule{analyzer.Rule{Id: ruleRoutines, Apply: sqlbackend.RoutinesRule}, isInfoSchemaTable},
				gatedRule{analyzer.Rule{Id: ruleDropDatabase, Apply: sqlbackend.DropDatabaseRule(hp)}, isNode[*plan.DropDB]},
				gatedRule{analyzer.Rule{Id: ruleFirstMatch, Apply: firstMatchRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleTupleEq, Apply: tupleEqRule}, hasTupleEq},                     // tupleeq.go
				gatedRule{analyzer.Rule{Id: ruleSemiHash, Apply: semiHashRule}, isPartialJoin},                // semihash.go
				gatedRule{analyzer.Rule{Id: ruleGroupPrune, Apply: groupPruneRule}, isNode[*plan.GroupBy]},    // groupprune.go
				gatedRule{analyzer.Rule{Id: ruleSortPrune, Apply: sortPruneRule}, isNode[*plan.Sort]},         // sortprune.go
				gatedRule{analyzer.Rule{Id: ruleOuterLookup, Apply: outerLookupRule}, isNode[*plan.JoinNode]}, // outerlookup.go
				gatedRule{analyzer.Rule{Id: ruleMergeKeys, Apply: mergeKeysRule}, isNode[*plan.JoinNode]},     // mergekeys.go
				gatedRule{analyzer.Rule{Id: ruleDecimalHashKeys, Apply: decimalHashKeysRule}, isNode[*plan.HashLookup]},
				gatedRule{analyzer.Rule{Id: ruleDateDiff, Apply: dateDiffRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleTimeToSec, Apply: timeToSecRule}, nil}, // timetosec.go
				gatedRule{analyzer.Rule{Id: ruleCastTime, Apply: castTimeRule}, nil},   // casttime.go
				gatedRule{analyzer.Rule{Id: ruleISODates, Apply: isoDatesRule}, nil},
				gatedRule{analyzer.Rule{Id: ruleTimeLiterals, Apply: timeLiteralsRule}, nil},       // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleDecimalExtremes, Apply: decimalExtremesRule}, nil}, // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleISOSortKeys, Apply: isoSortKeysRule}, nil},         // fastcmp.go
				gatedRule{analyzer.Rule{Id: ruleIntoFile, Apply: intoFileRule}, nil})).             // guards.go
		Build())))) // withAssign: uservar.go
	a.Coster = sqlbackend.Coster{Coster: a.Coster}
	a.ExecBuilder = newExecBuilder()              // execbuilder.go
	sqlbackend.MariaDBCheckConstraints(a.Catalog) // infoschema.go
	if a.Catalog.AuthHandler != nil {
		a.Catalog.AuthHandler = mariaAuth{a.Catalog.AuthHandler} // auth.go
	}
	sqlbackend.MariaDBTableTimes(a.Catalog)
	sqlbackend.MariaDBViews(a.Catalog)
	if hp != nil {
		hp.OverrideFunctions(numericFunctions...) // numfuncs.go
		hp.OverrideFunctions(timeFunctions...)    // addtime.go
		hp.SetAnalyzer(a)
	}
	return a
}
