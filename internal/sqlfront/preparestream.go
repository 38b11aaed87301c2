package sqlfront

import "strings"

// The wire layer parses every COM_STMT_PREPARE with the vitess grammar
// (to count the placeholders, wireConn.prepare) before any handler sees
// it, and that grammar has no INSERT ... RETURNING, which GORM sends for
// every create to a MariaDB of 10.5 or later, and no DO. markPrepared
// hides a RETURNING clause of a prepared INSERT in a comment the grammar
// skips (/*hdb:RETURNING ...*/), and the guarded parser takes the comment
// out again before it parses (unmarkReturning), so go-mysql-server gets
// the statement as written; a prepared DO becomes a marked SELECT
// (markDo). Placeholders inside the RETURNING list are not counted, and
// so not accepted. (Before HandlerDB had its own wire layer this was done
// by rewriting the packets under vitess's listener, which a TLS
// connection's packets passed untouched.)

const returningMark = "/*hdb:"

// markPrepared is q as the wire layer prepares it: with a RETURNING
// clause hidden (markReturning), or DO as a marked SELECT (markDo); ok is
// false when q is neither.
func markPrepared(q string) (string, bool) {
	if q2, ok := markReturning(q); ok {
		return q2, true
	}
	return markDo(q)
}

// doMark starts the text of a prepared DO: vitess's grammar has no DO
// (DO RELEASE_LOCK(?) is common), so DO expr, ... is prepared as the
// SELECT of its expressions, which ComPrepare answers with no columns and
// ComStmtExecute runs with its rows dropped (wire.go).
const doMark = "/*hdb:DO*/SELECT"

// markDo turns DO expr[, ...] into doMark expr[, ...]; ok is false for
// any other statement.
func markDo(q string) (string, bool) {
	t := trimBlanks(q, false)
	if len(t) < 3 || !strings.EqualFold(t[:2], "DO") || !isBlank(t[2]) && t[2] != '(' {
		return q, false
	}
	return doMark + t[2:], true
}

// markReturning hides the RETURNING clause of an INSERT in a comment; ok
// is false when q has none (or the clause holds a comment's end).
func markReturning(q string) (string, bool) {
	if firstWord(q) != "insert" {
		return q, false
	}
	at := returningAt(q)
	if at < 0 || strings.Contains(q[at:], "*/") {
		return q, false
	}
	end := len(strings.TrimRight(q, " \t\r\n;"))
	if end <= at+len("returning") {
		return q, false // the word, and no list: an alias
	}
	return q[:at] + returningMark + q[at:end] + "*/" + q[end:], true
}

// unmarkReturning is q with a RETURNING clause markReturning hid put back.
func unmarkReturning(q string) string {
	i := strings.Index(q, returningMark)
	if i < 0 {
		return q
	}
	rest := q[i+len(returningMark):]
	if len(rest) < len("returning") || !strings.EqualFold(rest[:len("returning")], "returning") {
		return q
	}
	j := strings.LastIndex(q, "*/")
	if j < i {
		return q
	}
	return q[:i] + q[i+len(returningMark):j] + q[j+2:]
}
