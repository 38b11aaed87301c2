package sqlfront

import (
	"fmt"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// sampleArgs returns one argument for each verb of format, distinct so
// that a mismatch of arguments shows.
func sampleArgs(format string) []any {
	var args []any
	for i := 0; i < len(format)-1; i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && (format[i] == '-' || format[i] == '.' || format[i] >= '0' && format[i] <= '9') {
			i++
		}
		if i == len(format) {
			break
		}
		switch format[i] {
		case '%':
		case 'd':
			args = append(args, 40+len(args))
		default:
			args = append(args, fmt.Sprintf("a%d", len(args)))
		}
	}
	return args
}

// TestKindWordings makes an error of each go-mysql-server kind the table
// words, casts it as go-mysql-server's handler does, and checks that the
// first entry recognizing its text is the kind's own (or one of the same
// format): an upstream kind whose new format another entry's matcher
// takes, or that its own no longer matches, fails here.
func TestKindWordings(t *testing.T) {
	for i := range kindWordings {
		w := &kindWordings[i]
		var err error
		switch {
		case w.bare:
			err = w.kind.New()
		case w.cause != "":
			err = w.kind.Wrap(fmt.Errorf(w.cause, sampleArgs(w.cause)...), sampleArgs(w.kind.Message)...)
		default:
			err = w.kind.New(sampleArgs(w.kind.Message)...)
		}
		msg := sql.CastSQLError(err).Message
		first := -1
		for j := range kindWordings {
			if _, ok := kindWordings[j].match(msg); ok {
				first = j
				break
			}
		}
		if first < 0 {
			t.Errorf("entry %d (%q): its kind's error %q is recognized by no entry", i, w.kind.Message, msg)
			continue
		}
		if other := &kindWordings[first]; first != i && other.re.String() != w.re.String() {
			t.Errorf("entry %d (%q): its kind's error %q is taken by entry %d (%q)", i, w.kind.Message, msg, first, other.kind.Message)
		}
	}
}
