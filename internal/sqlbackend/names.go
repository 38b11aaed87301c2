package sqlbackend

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Names of databases, tables (and views), columns, indexes and routines
// (procedures, triggers) are checked before anything is stored, as
// MariaDB 10.11 checks them (its answers, measured over go-sql-driver):
//
//   - text that is not valid UTF-8, or holds a character outside the Basic
//     Multilingual Plane (identifiers are utf8mb3): 1300
//     ER_INVALID_CHARACTER_STRING, "Invalid utf8mb4 character string:
//     'a\xFFb'", every byte past ASCII printed as \xHH;
//   - an empty name, one that ends with a space, or one holding a NUL
//     byte: 1102 ER_WRONG_DB_NAME, 1103 ER_WRONG_TABLE_NAME, 1166
//     ER_WRONG_COLUMN_NAME, 1280 ER_WRONG_NAME_FOR_INDEX or 1458
//     ER_SP_WRONG_NAME (MariaDB's parser stops at a NUL and reports a
//     syntax error instead);
//   - more than 64 characters: 1102 or 1103 for databases and tables,
//     1059 ER_TOO_LONG_IDENT for the others.
//
// A name stored before these checks that is not valid UTF-8 is left out of
// the listings (SHOW DATABASES, SHOW TABLES, information_schema), which
// fail on it, but can still be used, renamed and dropped by name.

// nameKind is what a checked name names.
type nameKind int

const (
	nameDatabase nameKind = iota
	nameTable             // tables and views
	nameColumn
	nameIndex
	nameRoutine // stored procedures and triggers
)

// maxNameChars is the longest name, in characters.
const maxNameChars = 64

// checkName returns MariaDB's error for a name that cannot be stored, or
// nil.
func checkName(ctx *sql.Context, kind nameKind, name string) error {
	if !identifierText(name) {
		return mysql.NewSQLError(mysql.ERInvalidCharacterString, "HY000",
			"Invalid %s character string: '%s'", clientCharset(ctx), escapeNonASCII(name))
	}
	if name == "" || name[len(name)-1] == ' ' || strings.IndexByte(name, 0) >= 0 {
		return wrongName(kind, name)
	}
	if utf8.RuneCountInString(name) > maxNameChars {
		if kind == nameDatabase || kind == nameTable {
			return wrongName(kind, name)
		}
		return tooLongIdent(name)
	}
	return nil
}

// wrongName is the "Incorrect ... name" error of kind.
func wrongName(kind nameKind, name string) error {
	num, what := mysql.ERWrongDbName, "database"
	switch kind {
	case nameTable:
		num, what = mysql.ERWrongTableName, "table"
	case nameColumn:
		num, what = mysql.ERWrongColumnName, "column"
	case nameIndex:
		num, what = mysql.ERWrongNameForIndex, "index"
	case nameRoutine:
		num, what = errtable.ERSPWrongName, "routine"
	}
	return mysql.NewSQLError(num, "42000", "Incorrect %s name '%s'", what, name)
}

// tooLongIdent is ER_TOO_LONG_IDENT for name.
func tooLongIdent(name string) error {
	return errtable.SQLError(mysql.ERTooLongIdent, name)
}

// identifierText reports whether s is valid UTF-8 within the Basic
// Multilingual Plane.
func identifierText(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || r > 0xFFFF {
			return false
		}
		i += n
	}
	return true
}

// listable reports whether a stored name can be listed: the listings
// convert names to the connection's character set and fail on invalid
// UTF-8.
func listable(name string) bool { return utf8.ValidString(name) }

// escapeNonASCII prints the bytes of s past ASCII as \xHH, as MariaDB's
// 1300 does.
func escapeNonASCII(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02X`, c)
		}
	}
	return b.String()
}

// clientCharset names the character set the client sends text in, for
// 1300's message (utf8mb4 unless the client chose utf8mb3).
func clientCharset(ctx *sql.Context) string {
	if ctx != nil && ctx.Session != nil {
		if v, err := ctx.GetSessionVariable(ctx, "character_set_client"); err == nil {
			if s, ok := v.(string); ok && (strings.EqualFold(s, "utf8mb3") || strings.EqualFold(s, "utf8")) {
				return "utf8mb3"
			}
		}
	}
	return "utf8mb4"
}
