package mariadb

import "github.com/dolthub/go-mysql-server/sql/analyzer"

// The identifiers of the dialect's analyzer rules (and of the backend's
// storage rules it registers), in one list so that no two rules share
// one. go-mysql-server's own identifiers are below 1000; these follow
// 10000. A rule's identifier is what a RuleSelector is asked, and what
// go-mysql-server prints for it when it traces a plan.
const (
	// Identifiers of HandlerDB's analyzer rules.
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
	// The analyzer runs HandlerDB's rules of one phase as one rule of its own
	// (rulePreAnalyze, rulePostValidation): go-mysql-server spells the id of
	// every rule it runs (RuleId.String, two allocations for an id it does not
	// know) on every statement, so thirteen rules cost 26 allocations of a
	// point select where one costs two.
	rulePreAnalyze
	rulePostValidation
	ruleFloatDiv
	ruleExactAggregates
	ruleOddDates
	ruleOddInLists
	ruleMatchIndex
	ruleSpatialWithin
	ruleAxisOrder
	// Identifiers of the rules (HandlerDB's range 10340-10359).
	ruleTemporalTypes
	ruleTemporalText
	ruleJSONPaths
	ruleCTETimeTypes
	// Identifiers of the planning rules (10360-10379).
	ruleEqualityTransfer
	ruleFirstMatch
	ruleDateDiff
	ruleISODates
	// ruleFastConcat replaces go-mysql-server's CONCAT_WS by concatWS, which
	// builds the same text with one allocation instead of two per argument
	// and two more for the join (a row checksum over CONCAT_WS spent half its
	// time there), and prints a DECIMAL without big.Int (appendDecimal); text
	// in UTF-8 is appended as it is (LongText's conversion of such a string is
	// the string; other text is refused by that conversion, as before).
	ruleFastConcat
	// ruleSharedSubqueryAlias: go-mysql-server plans a select list with a
	// correlated scalar subquery as a projection over a projection that both
	// compute the subquery (the inner one for ORDER BY, the outer one for the
	// result), so each row ran it twice: a report of
	// each store's last rental read the rentals eight times for four stores.
	// sharedSubqueryAliasRule makes the outer projection read the inner one's
	// column instead.
	ruleSharedSubqueryAlias
	// ruleSizeGuard wraps every string function that can build a value
	// larger than its arguments (REPEAT, LPAD, RPAD, SPACE, CONCAT,
	// CONCAT_WS, REPLACE, TO_BASE64, HEX, JSON_ARRAY, JSON_OBJECT) in a sizeGuard, which decides from
	// the arguments' values, before the function allocates anything, whether
	// the result would pass max_allowed_packet; if so the result is NULL with
	// warning 1301, as MariaDB answers ("Result of repeat() was larger than
	// max_allowed_packet (16777216) - truncated"). Without it one
	// SELECT REPEAT('x',1e9) took gigabytes. QUOTE becomes quoteFunc, which
	// bounds itself.
	ruleSizeGuard
	// ruleBoundedRegexp replaces go-mysql-server's REGEXP / RLIKE /
	// REGEXP_LIKE, REGEXP_INSTR, REGEXP_SUBSTR and REGEXP_REPLACE, which
	// match with ICU's backtracking engine compiled to WebAssembly (no step
	// or time limit, deaf to the statement's cancellation: SELECT
	// REPEAT('a',30) REGEXP '^(a+)+$b' kept a core busy past KILL), by
	// regexpFunc, whose matcher never runs unbounded:
	//
	//   - REGEXP matches with Go's regexp package when its syntax takes the
	//     pattern: time linear in the text, so no pattern makes it run long;
	//   - every other pattern (back references, look-around, atomic groups,
	//     possessive quantifiers) and the three functions that walk matches
	//     use regexp2, a backtracking engine, with each match bounded by
	//     regexpMatchTime and the statement's cancellation checked between
	//     matches. A match past the bound counts as no match with warning
	//     1139 "Regex error 'match limit exceeded'", as MariaDB answers when
	//     PCRE2's match limit stops it.
	//
	// The answers are MariaDB's: REGEXP_SUBSTR without a match is the empty
	// string,
	// REGEXP_REPLACE stops at the first empty match and reads \0..\9 in
	// the replacement as groups, and a pattern neither engine compiles is
	// error 1139. REGEXP_REPLACE's result is bounded by max_allowed_packet
	// as it is built (NULL and warning 1301 past it). MySQL's extra
	// arguments (position, occurrence, return option, match type), which
	// go-mysql-server's parser accepts, keep their MySQL meaning.
	ruleBoundedRegexp
	// ruleSubqueryMemo: a correlated scalar subquery runs its plan for every
	// row of the outer query, also for rows whose correlated columns hold
	// values it has met before (the last rental of each of 4 customers ran
	// it 48 times). subqueryMemoRule lets it answer those from a memo of the
	// statement's execution, as MariaDB's subquery cache does.
	ruleSubqueryMemo
	// ruleBoundedGroupConcat replaces a GROUP_CONCAT over text by
	// boundedGroupConcat, which keeps no more of its group than the result
	// can use and reports warning 1260 ("Row N was cut by GROUP_CONCAT()"),
	// as MariaDB does: without ORDER BY it stops keeping values once the
	// result has group_concat_max_len bytes; with ORDER BY it keeps, of the
	// rows seen so far, only those that come first in the result up to
	// group_concat_max_len bytes (their sort keys and at most
	// group_concat_max_len+1 bytes of each value), sorts them at the end and
	// cuts. go-mysql-server's keeps every row of
	// the group whole (its input row too) and cuts only at the end (4 GB
	// held to return 1024 bytes). Over BLOB or binary values the bytes are
	// concatenated as they are and the cut may fall inside a character.
	ruleBoundedGroupConcat
	ruleRangeRead
	ruleTimeLiterals
	ruleDecimalExtremes
	// isoSortKeysRule wraps each ORDER BY key (of a Sort, a TopN and a
	// window's PARTITION BY and ORDER BY) whose type is DATE, DATETIME or
	// TIMESTAMP in isoDate: such a key can hold text (DATE() returns its date
	// as text, and a derived table's column keeps it), which the sort would
	// parse at every comparison, with the failed layouts' errors; isoDate
	// hands it over as the time it stands for, which compares the same. The
	// rows the sort returns are unchanged (the keys are evaluated apart).
	ruleISOSortKeys
	// CASE and DECIMAL comparisons, per row.
	//
	// go-mysql-server's CASE works out its type from its branches and, for a
	// simple CASE, builds its comparisons anew for every row, then converts
	// the chosen value to that type; a DECIMAL's conversion prints and
	// parses the value and raises ten to a power with big.Int to check its
	// bounds (a third of a report of CASE aggregates). fastCase keeps the
	// type and the comparisons, converts literal values once, and takes a
	// decimal already of the type's scale and within its precision as it
	// is (what the conversion gives back). A comparison of a DECIMAL with
	// an integer literal, or a decimal literal of no more digits of scale,
	// converts both sides to decimals for every row; decimalCmp compares
	// the value with the literal, as a decimal, directly.
	//
	// fastCasesRule runs last (in analyzer.OnceAfterAll): HandlerDB's
	// earlier rules (decimalagg.go, temporal.go) look for *expression.Case.
	// Both expressions are immutable and safe for concurrent use.
	ruleFastCases
	ruleViewFilters
	// ruleIntoFile refuses SELECT ... INTO OUTFILE / DUMPFILE to an account
	// without the global FILE privilege, as MariaDB does (go-mysql-server
	// asks FILE of LOAD DATA only): 1227, "Access denied; you need (at least
	// one of) the FILE privilege(s) for this operation".
	ruleIntoFile
	// ruleShowCreateOfView makes SHOW CREATE TABLE of a view answer as SHOW
	// CREATE VIEW does, as MariaDB's does: go-mysql-server gave it the view's
	// four-column schema and a table's two-value row (a panic in the wire
	// encoding).
	ruleShowCreateOfView
	// ruleJoinTables refuses a join of more than maxJoinTables tables with
	// MariaDB's 1116 before go-mysql-server's join planner, whose table sets
	// hold 64 (a panic past them).
	ruleJoinTables
	// ruleLoadFile swaps go-mysql-server's LOAD_FILE, which panics reading the
	// unsigned max_allowed_packet as an int64, for loadFile.
	ruleLoadFile
	ruleTimeToSec
	// ruleBoundedJSONAgg wraps JSON_ARRAYAGG and JSON_OBJECTAGG in a
	// boundedJSONAgg, whose buffer counts the bytes of the values its group
	// has kept and, once they pass max_allowed_packet, keeps no more: the
	// result is NULL with warning 1301, as for any other value past the
	// limit. go-mysql-server's keeps every value of the group (a GROUP BY
	// of large values held gigabytes). MariaDB cuts JSON_ARRAYAGG at
	// group_concat_max_len (warning 1260, a document that is no longer
	// JSON); HandlerDB answers the whole document up to the packet limit.
	ruleBoundedJSONAgg
	// ruleHideLike and ruleShowLikeAgain keep go-mysql-server's filter
	// simplification (simplifyFilters, once before the default rules) away
	// from LIKE, which it rewrote wrongly: x LIKE 'p%' became x >= 'p' AND
	// x <= 'p' + byte 255, an upper bound that utf8mb4_general_ci reads as
	// 'pY' (so LIKE 'subquer%' missed 'subquery_1'), and a pattern without
	// an unescaped wildcard became x = pattern, which kept the escape
	// backslashes (LIKE 'a\_b' matched nothing) and compared with trailing
	// spaces padded. hideLikeRule (before analysis) wraps each LIKE in a
	// hiddenLike, and over a literal pattern 'p%' (no other wildcard, no
	// escape) also adds x >= 'p' in front, the bound an index range can use
	// (every value matching lies at or after its prefix in any collation);
	// the LIKE itself stays and decides. showLikeAgainRule (after
	// validation) unwraps it. Both are pure functions of the plan.
	ruleHideLike
	ruleShowLikeAgain
	ruleDDLNames
	// ruleNotExistsMark and ruleNotExistsJoin name the two rules.
	ruleNotExistsMark
	ruleNotExistsJoin
	// ruleReturning and ruleReturningPlace name the two rules.
	ruleReturning
	ruleReturningPlace
	ruleTopNLimits
)
