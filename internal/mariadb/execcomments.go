package mariadb

import "strings"

// ServerVersionID is the version number executable comments are compared
// with: 10.11.99 (sqlfront's version string), as MariaDB computes it.
const ServerVersionID = 101199

// ExecutableComments returns q with MariaDB's executable comments
// resolved, and whether there was one. The vitess parser runs the text of
// every /*!NNNNN ... */ (as MySQL 8 would), cannot read a six-digit
// version (/*!100100 ...*/, 1064) and ignores /*M!NNNNNN ... */, where
// MariaDB 10.11:
//
//   - runs /*! ... */ and /*!NNNNN ... */ with NNNNN below 50700, and
//     /*!NNNNNN ... */ and /*M!NNNNNN ... */ up to its own version;
//   - ignores the five-digit versions from 50700 on (MySQL 5.7 and 8's,
//     which it does not follow), and versions above its own.
//
// A comment that runs loses its marker and its end; one that does not
// becomes a plain comment. Both keep the text's length (each character
// taken out becomes a space), so offsets into q stay valid. Strings,
// quoted identifiers and plain comments are left as they are.
func ExecutableComments(q string) (string, bool) {
	if !strings.Contains(q, "/*!") && !strings.Contains(q, "/*M!") {
		return q, false
	}
	var b []byte
	blank := func(from, to int) {
		if b == nil {
			b = []byte(q)
		}
		for k := from; k < to; k++ {
			b[k] = ' '
		}
	}
	done := func() (string, bool) {
		if b == nil {
			return q, false
		}
		return string(b), true
	}
	open := -1 // the end of the running comment's marker, if inside one
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(q) && q[j] != c {
				if q[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			i = j + 1
		case c == '#' || c == '-' && strings.HasPrefix(q[i:], "--") && (i+2 == len(q) || q[i+2] == ' ' || q[i+2] == '\t' || q[i+2] == '\n'):
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '*' && open >= 0 && strings.HasPrefix(q[i:], "*/"):
			blank(i, i+2)
			open = -1
			i += 2
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			j := i + 2
			maria := false
			if strings.HasPrefix(q[j:], "M!") {
				maria, j = true, j+2
			} else if strings.HasPrefix(q[j:], "!") {
				j++
			} else {
				end := strings.Index(q[j:], "*/")
				if end < 0 {
					return done()
				}
				i = j + end + 2
				continue
			}
			k := j
			for k < len(q) && q[k] >= '0' && q[k] <= '9' {
				k++
			}
			runs := true
			if n := k - j; n > 0 {
				v := 0
				for _, d := range q[j:k] {
					v = v*10 + int(d-'0')
				}
				runs = v <= ServerVersionID && (maria || n != 5 || v < 50700)
			} else if maria {
				runs = true
			}
			if runs && open < 0 {
				blank(i, k)
				open = k
			} else {
				// A plain comment from here to its end.
				blank(i+2, k)
				end := strings.Index(q[k:], "*/")
				if end < 0 {
					return done()
				}
				i = k + end + 2
				continue
			}
			i = k
		default:
			i++
		}
	}
	return done()
}
