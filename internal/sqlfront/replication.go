package sqlfront

import "strings"

// The older spellings of the replication statements.
//
// go-mysql-server's parser knows CHANGE REPLICATION SOURCE TO, START /
// STOP / RESET REPLICA and SHOW SLAVE STATUS, but not the forms MariaDB
// documents and most scripts still use: CHANGE MASTER TO MASTER_...=...,
// START SLAVE, STOP SLAVE, RESET SLAVE [ALL]. When a statement fails to
// parse, replicationRewrite (through dialectRewrite) gives the parser the
// current spelling instead: SLAVE becomes REPLICA, CHANGE MASTER TO
// becomes CHANGE REPLICATION SOURCE TO with each MASTER_ option named
// SOURCE_, and MariaDB's MASTER_USE_GTID = slave_pos or current_pos
// (no) becomes SOURCE_AUTO_POSITION = 1 (0). Named connections (CHANGE
// MASTER 'name' TO), START SLAVE UNTIL and the options the parser has no
// SOURCE_ form of (MASTER_LOG_FILE, MASTER_LOG_POS, MASTER_SSL_CA...)
// stay syntax errors.

// replicationRewrite returns q in the current spelling, and whether it
// is one of the older forms.
func replicationRewrite(q string) (string, bool) {
	toks := codeWords(q)
	is := func(i int, w string) bool {
		return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w)
	}
	switch {
	case (is(0, "START") || is(0, "STOP") || is(0, "RESET")) && is(1, "SLAVE"):
		return q[:toks[1].start] + "REPLICA" + q[toks[1].end:], true
	case is(0, "CHANGE") && is(1, "MASTER") && is(2, "TO") && strings.TrimSpace(q[toks[1].end:toks[2].start]) == "":
	default:
		return q, false
	}
	var b strings.Builder
	b.WriteString(q[:toks[0].start])
	b.WriteString("CHANGE REPLICATION SOURCE TO")
	last := toks[2].end
	for i := 3; i < len(toks); i++ {
		t := toks[i]
		if !t.word || i+1 >= len(toks) || toks[i+1].text != "=" {
			continue
		}
		name := strings.ToUpper(t.text)
		if !strings.HasPrefix(name, "MASTER_") {
			continue
		}
		b.WriteString(q[last:t.start])
		if name == "MASTER_USE_GTID" && i+2 < len(toks) {
			v := "1"
			if strings.EqualFold(toks[i+2].text, "no") {
				v = "0"
			}
			b.WriteString("SOURCE_AUTO_POSITION = " + v)
			last = toks[i+2].end
			i += 2
			continue
		}
		b.WriteString("SOURCE_" + t.text[len("MASTER_"):])
		last = t.end
	}
	b.WriteString(q[last:])
	return b.String(), true
}
