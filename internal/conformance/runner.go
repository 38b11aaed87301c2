package conformance

import (
	"bufio"
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"time"
)

// Target is the server a Runner drives.
type Target struct {
	// SQL is a connection pool to the server's SQL port, database conf.
	SQL *sql.DB
	// ReadAddr and WriteAddr are the HandlerSocket ports.
	ReadAddr, WriteAddr string
	// Timeout bounds each expected read; default 5 s.
	Timeout time.Duration
}

// Failure describes one failing case, as FORMAT.md asks: where, what was
// sent, what was expected, what came.
type Failure struct {
	Case     *Case
	Line     int
	Sent     []byte
	Expected string
	Got      string
}

func (f *Failure) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "FAIL %s/%s (line %d)\n", f.Case.File, f.Case.Name, f.Line)
	if f.Sent != nil {
		fmt.Fprintf(&sb, "  sent:     %s\n", Escape(f.Sent))
	}
	fmt.Fprintf(&sb, "  expected: %s\n  got:      %s", f.Expected, f.Got)
	return sb.String()
}

type conn struct {
	c net.Conn
	r *bufio.Reader
}

// Run replays one case against tg. It returns nil, a *Failure, or another
// error (the server could not be reached).
func Run(tg Target, c *Case) error {
	if tg.Timeout == 0 {
		tg.Timeout = 5 * time.Second
	}
	conns := map[string]*conn{}
	defer func() {
		for _, cn := range conns {
			cn.c.Close()
		}
	}()
	for _, q := range c.Setup {
		if _, err := tg.SQL.Exec(q); err != nil {
			return &Failure{Case: c, Line: c.Line, Expected: "setup " + q + " to succeed", Got: err.Error()}
		}
	}
	for _, st := range c.Steps {
		switch st.Kind {
		case StepClose:
			if err := checkQuiet(c, st.Line, st.Conn, conns[st.Conn]); err != nil {
				return err
			}
			if cn := conns[st.Conn]; cn != nil {
				cn.c.Close()
				delete(conns, st.Conn)
			}
		case StepSend:
			cn := conns[st.Conn]
			if cn == nil {
				addr := tg.ReadAddr
				if strings.HasPrefix(st.Conn, "w") {
					addr = tg.WriteAddr
				}
				nc, err := net.DialTimeout("tcp", addr, tg.Timeout)
				if err != nil {
					return err
				}
				cn = &conn{c: nc, r: bufio.NewReader(nc)}
				conns[st.Conn] = cn
			}
			if _, err := cn.c.Write(st.Bytes); err != nil {
				return &Failure{Case: c, Line: st.Line, Sent: st.Bytes, Expected: "write to succeed", Got: err.Error()}
			}
			for _, want := range st.Expect {
				cn.c.SetReadDeadline(time.Now().Add(tg.Timeout))
				if want == nil {
					b, err := cn.r.ReadByte()
					if err == nil {
						return &Failure{Case: c, Line: st.Line, Sent: st.Bytes, Expected: "<eof>", Got: Escape([]byte{b}) + "..."}
					}
					if !errors.Is(err, io.EOF) && !isReset(err) {
						return &Failure{Case: c, Line: st.Line, Sent: st.Bytes, Expected: "<eof>", Got: err.Error()}
					}
					continue
				}
				got, err := cn.r.ReadBytes('\n')
				if err != nil {
					return &Failure{Case: c, Line: st.Line, Sent: st.Bytes, Expected: Escape(want), Got: Escape(got) + " (" + err.Error() + ")"}
				}
				if !bytes.Equal(got, want) {
					return &Failure{Case: c, Line: st.Line, Sent: st.Bytes, Expected: Escape(want), Got: Escape(got)}
				}
			}
		case StepSQL:
			if err := checkSQL(tg, c, &st); err != nil {
				return err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(conns)) { // the same failure reported every run
		if err := checkQuiet(c, 0, name, conns[name]); err != nil {
			return err
		}
	}
	return nil
}

func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// checkQuiet fails if the server sent bytes nobody expected.
func checkQuiet(c *Case, line int, name string, cn *conn) error {
	if cn == nil {
		return nil
	}
	cn.c.SetReadDeadline(time.Now().Add(30 * time.Millisecond))
	b, err := cn.r.ReadByte()
	if err == nil {
		rest, _ := cn.r.Peek(cn.r.Buffered())
		return &Failure{Case: c, Line: line, Expected: "nothing more on " + name, Got: Escape(append([]byte{b}, rest...))}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, io.EOF) || errors.Is(err, os.ErrDeadlineExceeded) || isReset(err) {
		return nil
	}
	return err
}

// checkSQL runs a sql> step and compares its rows.
func checkSQL(tg Target, c *Case, st *Step) error {
	rows, err := tg.SQL.Query(st.Query)
	if err != nil {
		return &Failure{Case: c, Line: st.Line, Expected: "query " + st.Query + " to succeed", Got: err.Error()}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var got [][]Field
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]Field, len(cols))
		for i, v := range vals {
			if v == nil {
				row[i] = Field{Null: true}
			} else {
				row[i] = Field{Bytes: append([]byte{}, v...)}
			}
		}
		got = append(got, row)
	}
	if err := rows.Err(); err != nil {
		return &Failure{Case: c, Line: st.Line, Expected: "rows of " + st.Query, Got: err.Error()}
	}
	if st.Rows == nil {
		return nil
	}
	if !sameRows(got, st.Rows) {
		return &Failure{Case: c, Line: st.Line, Expected: formatRows(st.Rows), Got: formatRows(got)}
	}
	return nil
}

func sameRows(a, b [][]Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j].Null != b[i][j].Null || !bytes.Equal(a[i][j].Bytes, b[i][j].Bytes) {
				return false
			}
		}
	}
	return true
}

func formatRows(rows [][]Field) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d rows", len(rows))
	for _, r := range rows {
		sb.WriteString("\n    = ")
		for i, f := range r {
			if i > 0 {
				sb.WriteString(`\t`)
			}
			if f.Null {
				sb.WriteString(`\N`)
			} else {
				sb.WriteString(Escape(f.Bytes))
			}
		}
	}
	return sb.String()
}
