package sqlbackend

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// sql_mode as MariaDB 10.11 has it: its default, its members in the order
// MariaDB prints them, and the compound modes (TRADITIONAL, ANSI) expanded
// when set. go-mysql-server's own variable has MySQL 8's default and
// member order and keeps compound modes as one word; DefineSQLMode
// replaces it. The rules of store.go read the mode of the session each
// statement runs in (sessionMode). Everything here is safe for concurrent
// use (go-mysql-server's variable table has its own lock).

// DefaultSQLMode is MariaDB 10.11's default sql_mode.
const DefaultSQLMode = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"

// sqlModeNames are MariaDB 10.11's sql_mode members in its bit order (the
// order SELECT @@sql_mode prints them in).
var sqlModeNames = []string{
	"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "IGNORE_BAD_TABLE_OPTIONS",
	"ONLY_FULL_GROUP_BY", "NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE", "POSTGRESQL", "ORACLE",
	"MSSQL", "DB2", "MAXDB", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "MYSQL323",
	"MYSQL40", "ANSI", "NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES", "STRICT_TRANS_TABLES",
	"STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ALLOW_INVALID_DATES",
	"ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL", "NO_AUTO_CREATE_USER", "HIGH_NOT_PRECEDENCE",
	"NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH", "EMPTY_STRING_IS_NULL",
	"SIMULTANEOUS_ASSIGNMENT", "TIME_ROUND_FRACTIONAL",
}

// compoundModes are the members MariaDB adds when a compound mode is set
// (checked with SET sql_mode='TRADITIONAL' / 'ANSI'; SELECT @@sql_mode).
var compoundModes = map[string][]string{
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE",
		"ERROR_FOR_DIVISION_BY_ZERO", "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"},
	"ANSI": {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE"},
}

// sqlModeType is the type of the sql_mode variable: go-mysql-server's set
// type over MariaDB's members, expanding compound modes in Convert.
type sqlModeType struct {
	setVariableType
}

// setVariableType is go-mysql-server's type of a SET variable: sessions
// read such a variable's bits back as text through sql.SetType.
type setVariableType interface {
	sql.SystemVariableType
	sql.SetType
}

// Convert expands TRADITIONAL and ANSI in a textual mode, then converts
// as the set type does.
func (t sqlModeType) Convert(ctx context.Context, v interface{}) (interface{}, sql.ConvertInRange, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		return t.setVariableType.Convert(ctx, v)
	}
	parts := strings.Split(s, ",")
	for _, p := range parts {
		parts = append(parts, compoundModes[strings.ToUpper(strings.TrimSpace(p))]...)
	}
	return t.setVariableType.Convert(ctx, strings.Join(parts, ","))
}

// DefineSQLMode installs MariaDB's sql_mode variable (default
// DefaultSQLMode) in go-mysql-server's process-wide variable table.
// Sessions opened afterwards start with its global value.
func DefineSQLMode() {
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
		Name:              "sql_mode",
		Scope:             sql.GetMysqlScope(sql.SystemVariableScope_Both),
		Dynamic:           true,
		SetVarHintApplies: true,
		Type:              sqlModeType{gtypes.NewSystemSetType("sql_mode", sql.Collation_utf8mb4_0900_ai_ci, sqlModeNames...).(setVariableType)},
		Default:           DefaultSQLMode,
	}})
}

// storeMode is what of a session's sql_mode decides how a value is stored.
type storeMode struct {
	strict            bool // STRICT_TRANS_TABLES or STRICT_ALL_TABLES (every table is transactional)
	noZeroDate        bool // NO_ZERO_DATE
	noZeroInDate      bool // NO_ZERO_IN_DATE
	allowInvalidDates bool // ALLOW_INVALID_DATES
	divZeroError      bool // ERROR_FOR_DIVISION_BY_ZERO
}

// parsedModes holds the parsed form of each sql_mode text seen (a
// session's mode is read for every row written; go-mysql-server's
// LoadSqlMode parses the text anew each time, which was 4% of
// oltp_insert's CPU). *sql.SqlMode is only read once made.
var (
	parsedModes sync.Map // sql_mode text -> *sql.SqlMode
	parsedCount atomic.Int32
)

// parsedModesMax bounds parsedModes: past it, texts are parsed each time.
const parsedModesMax = 256

// SessionSQLMode returns the sql_mode of the session ctx runs in, as
// sql.LoadSqlMode does, parsing each text once.
func SessionSQLMode(ctx *sql.Context) *sql.SqlMode {
	v, err := ctx.GetSessionVariable(ctx, "sql_mode")
	text, ok := v.(string)
	if err != nil || !ok {
		return sql.LoadSqlMode(ctx)
	}
	if m, ok := parsedModes.Load(text); ok {
		return m.(*sql.SqlMode)
	}
	m := sql.NewSqlModeFromString(text)
	if parsedCount.Load() < parsedModesMax {
		if _, loaded := parsedModes.LoadOrStore(text, m); !loaded {
			parsedCount.Add(1)
		}
	}
	return m
}

// sessionMode reads the storeMode of the session ctx runs in.
func sessionMode(ctx *sql.Context) storeMode {
	m := SessionSQLMode(ctx)
	on := func(name string) bool { return m.ModeEnabled(name) }
	trad := on("TRADITIONAL")
	return storeMode{
		strict:            trad || on("STRICT_TRANS_TABLES") || on("STRICT_ALL_TABLES"),
		noZeroDate:        trad || on("NO_ZERO_DATE"),
		noZeroInDate:      trad || on("NO_ZERO_IN_DATE"),
		allowInvalidDates: on("ALLOW_INVALID_DATES"),
		divZeroError:      trad || on("ERROR_FOR_DIVISION_BY_ZERO"),
	}
}

// Warnings returns the session's warnings in the order they were raised,
// as SHOW WARNINGS lists them (go-mysql-server's session returns the most
// recent first).
// Warn records a warning of the statement, worded as MariaDB words it
// where go-mysql-server's differs: its CAST to DATE or DATETIME of a
// value that is none says "Incorrect date value: x", MariaDB "Incorrect
// datetime value: 'x'" for both.
func (s *Session) Warn(w *sql.Warning) {
	if w != nil && w.Code == mysql.ERTruncatedWrongValue {
		for _, p := range [...]string{"Incorrect date value: ", "Incorrect datetime value: "} {
			if rest, ok := strings.CutPrefix(w.Message, p); ok && !strings.HasPrefix(rest, "'") {
				w.Message = "Incorrect datetime value: '" + rest + "'"
				break
			}
		}
	}
	s.BaseSession.Warn(w)
}

func (s *Session) Warnings() []*sql.Warning {
	w := s.BaseSession.Warnings()
	for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
		w[i], w[j] = w[j], w[i]
	}
	return w
}
