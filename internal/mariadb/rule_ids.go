package mariadb

import "github.com/dolthub/go-mysql-server/sql/analyzer"

// The identifiers of the dialect's analyzer rules (and of the backend's
// storage rules it registers), in one list so that no two rules share
// one. go-mysql-server's own identifiers are below 1000; these follow
// 10000. A rule's identifier is what a RuleSelector is asked, and what
// go-mysql-server prints for it when it traces a plan.
const (
	ruleBinaryLike analyzer.RuleId = iota + 10001
	ruleExplainRows
	ruleSchemaIsDB
	ruleAtomicFKs
	ruleStoreValues
	ruleShowPKPrefix
	ruleValues
	ruleShowIndexSubPart
	ruleStatisticsSubPart
	rulePKPrefix
	ruleShowCreateDB
	ruleExactUpdate
	ruleShowLike
	ruleMariaShow
	ruleScalarSubquery
	ruleTextIndexes
	ruleRoutines // stored functions
	ruleFKDepth
	ruleDropDatabase
	// each phase's rules run as one rule (batch.go)
	rulePreAnalyze
	rulePostValidation
	ruleFloatDiv
	ruleExactAggregates
	ruleOddDates
	ruleOddInLists
	ruleMatchIndex
	ruleSpatialWithin
	ruleAxisOrder
	ruleTemporalTypes
	ruleTemporalText
	ruleJSONPaths
	ruleCTETimeTypes
	ruleEqualityTransfer
	ruleFirstMatch
	ruleDateDiff
	ruleISODates
	ruleFastConcat
	ruleSharedSubqueryAlias
	ruleSizeGuard
	ruleBoundedRegexp
	ruleSubqueryMemo
	ruleBoundedGroupConcat
	ruleRangeRead
	ruleTimeLiterals
	ruleDecimalExtremes
	ruleISOSortKeys
	ruleFastCases
	ruleViewFilters
	ruleIntoFile
	ruleShowCreateOfView
	ruleJoinTables
	ruleLoadFile
	ruleTimeToSec
	ruleBoundedJSONAgg
	ruleHideLike
	ruleShowLikeAgain
	ruleDDLNames
	ruleNotExistsMark
	ruleNotExistsJoin
	ruleReturning
	ruleReturningPlace
	ruleTopNLimits
	ruleSemiHash
	ruleGroupPrune
	ruleTupleEq
	ruleOuterLookup
	ruleKeyedSort
	ruleKeyedGroup
	ruleMergeNulls
	ruleShowGrants
	ruleOrderedGroup
	ruleMergeKeys
	ruleDecimalHashKeys
	ruleSortPrune
	ruleCastTime
	ruleClock
	ruleReadOnly
	ruleScanFilter
	ruleIntRange
	ruleWindowKeys
	ruleRangeFrames
)
