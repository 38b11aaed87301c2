package mysqlproto

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/go-sql-driver/mysql"
)

// protoServer is a server made of this package's parts only, for testing
// them with a real client (go-sql-driver/mysql): it logs in root with
// its password and answers a few fixed commands. Its answers are data
// (cannedTypes), not SQL.
type protoServer struct {
	ln         net.Listener
	password   string
	plugin     string // the greeting's plugin ("" = mysql_native_password)
	tls        *tls.Config
	requireTLS bool
	maxPacket  int
	wg         sync.WaitGroup

	mu     sync.Mutex
	logins []*Login
}

func startProtoServer(t *testing.T, s *protoServer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.ln = ln
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(nc)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return ln.Addr().String()
}

// scramble is a mysql_native_password answer for password and salt.
func scramble(password string, salt []byte) []byte {
	if password == "" {
		return nil
	}
	h1 := sha1.Sum([]byte(password))
	h2 := sha1.Sum(h1[:])
	h := sha1.New()
	h.Write(salt)
	h.Write(h2[:])
	mask := h.Sum(nil)
	for i := range mask {
		mask[i] ^= h1[i]
	}
	return mask
}

func (s *protoServer) serve(nc net.Conn) {
	c := NewConn(nc)
	defer c.Close()
	l, err := c.Handshake(&Greeting{ServerVersion: "5.5.5-10.11.99-MariaDB", ConnectionID: 7, Charset: 45, Status: StatusAutocommit, AuthPlugin: s.plugin}, s.tls, s.requireTLS)
	if errors.Is(err, ErrTLSRequired) {
		_ = c.WriteError(1045, "28000", "Access denied: TLS required")
		_ = c.Flush()
		return
	}
	if err != nil {
		return
	}
	s.mu.Lock()
	s.logins = append(s.logins, l)
	s.mu.Unlock()
	token := l.AuthResponse
	if l.AuthPlugin != NativePassword {
		if token, err = c.AuthSwitch(NativePassword, l.Salt); err != nil {
			return
		}
	}
	if l.User != "root" || !bytes.Equal(token, scramble(s.password, l.Salt)) {
		_ = c.WriteError(1045, "28000", "Access denied for user '"+l.User+"'")
		_ = c.Flush()
		return
	}
	_ = c.WriteOK(OK{Status: StatusAutocommit})
	_ = c.Flush()
	c.SetMaxPacket(s.maxPacket)
	stmts := map[uint32]*Stmt{}
	queries := map[uint32]string{}
	lookup := func(id uint32) *Stmt { return stmts[id] }
	for {
		cmd, p, err := c.ReadCommand()
		if errors.Is(err, ErrPacketTooLarge) {
			_ = c.WriteError(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes")
			_ = c.Flush()
			return
		}
		if err != nil {
			return
		}
		switch cmd {
		case ComQuit:
			return
		case ComPing:
			err = c.WriteOK(OK{Status: StatusAutocommit})
		case ComQuery:
			err = s.query(c, string(p))
		case ComStmtPrepare:
			q := string(p)
			n := strings.Count(q, "?")
			cols := n
			if q == "types" {
				cols = len(cannedTypes.Fields)
			}
			st := NewStmt(uint32(len(stmts)+1), n, cols)
			stmts[st.ID], queries[st.ID] = st, q
			params := make([]*querypb.Field, n)
			for i := range params {
				params[i] = &querypb.Field{Name: "?", Type: sqltypes.VarBinary, Charset: 63}
			}
			columns := params
			if q == "types" {
				columns = cannedTypes.Fields
			}
			err = c.WritePrepareOK(st, params, columns, 0, StatusAutocommit)
		case ComStmtExecute:
			ex, perr := ParseExecute(p, lookup)
			if perr != nil {
				err = c.WriteError(1243, "HY000", perr.Error())
				break
			}
			if queries[ex.Stmt.ID] == "types" {
				err = writeResult(c, cannedTypes, true, StatusAutocommit)
				break
			}
			r := &sqltypes.Result{Rows: [][]sqltypes.Value{ex.Args}}
			for i, a := range ex.Args {
				r.Fields = append(r.Fields, &querypb.Field{Name: fmt.Sprint("p", i+1), Type: echoType(a.Type()), Charset: 63, Decimals: 6})
			}
			err = writeResult(c, r, true, StatusAutocommit)
		case ComStmtSendLongData:
			id, param, data, perr := ParseLongData(p)
			if perr == nil && stmts[id] != nil {
				stmts[id].AddLongData(param, data)
			}
			continue // no answer
		case ComStmtClose:
			if id, ok := StmtID(p); ok {
				delete(stmts, id)
			}
			continue // no answer
		case ComStmtReset:
			if id, ok := StmtID(p); ok && stmts[id] != nil {
				stmts[id].Reset()
			}
			err = c.WriteOK(OK{Status: StatusAutocommit})
		default:
			err = c.WriteError(1047, "08S01", "Unknown command")
		}
		if err == nil {
			err = c.Flush()
		}
		if err != nil {
			return
		}
	}
}

// echoType is the column type an echoed parameter is sent back as.
func echoType(t querypb.Type) querypb.Type {
	if t == sqltypes.Null {
		return sqltypes.VarBinary
	}
	return t
}

// writeResult sends one result set, binary or text.
func writeResult(c *Conn, r *sqltypes.Result, binary bool, status uint16) error {
	if err := c.WriteColumns(r.Fields, status); err != nil {
		return err
	}
	for _, row := range r.Rows {
		var err error
		if binary {
			err = c.WriteBinaryRow(r.Fields, row)
		} else {
			err = c.WriteTextRow(row)
		}
		if err != nil {
			return err
		}
	}
	return c.EndRows(status, 0)
}

func (s *protoServer) query(c *Conn, q string) error {
	switch {
	case q == "types":
		return writeResult(c, cannedTypes, false, StatusAutocommit)
	case q == "multi":
		// Three result sets and the closing OK, as a CALL sends them.
		for i := 1; i <= 3; i++ {
			r := &sqltypes.Result{Fields: []*querypb.Field{{Name: fmt.Sprint("c", i), Type: sqltypes.Int64, Charset: 63}}}
			for j := 0; j < i; j++ {
				r.Rows = append(r.Rows, []sqltypes.Value{sqltypes.NewInt64(int64(10*i + j))})
			}
			if err := writeResult(c, r, false, StatusAutocommit|StatusMoreResults); err != nil {
				return err
			}
		}
		return c.WriteOK(OK{Status: StatusAutocommit})
	case q == "signal":
		// A result set, then the error that ends the statement.
		r := &sqltypes.Result{Fields: []*querypb.Field{{Name: "ret", Type: sqltypes.Int64, Charset: 63}}, Rows: [][]sqltypes.Value{{sqltypes.NewInt64(42)}}}
		if err := writeResult(c, r, false, StatusAutocommit|StatusMoreResults); err != nil {
			return err
		}
		return c.WriteError(45001, "45001", "an error")
	case strings.HasPrefix(q, "echo "):
		body := q[len("echo "):]
		r := &sqltypes.Result{Fields: []*querypb.Field{{Name: "v", Type: sqltypes.VarBinary, Charset: 63}}, Rows: [][]sqltypes.Value{{sqltypes.MakeTrusted(sqltypes.VarBinary, []byte(body))}}}
		return writeResult(c, r, false, StatusAutocommit)
	case strings.HasPrefix(q, "insert"):
		return c.WriteOK(OK{AffectedRows: 3, InsertID: 12, Status: StatusAutocommit, Warnings: 1, Info: "Records: 3  Duplicates: 0  Warnings: 1"})
	default:
		return c.WriteError(1064, "42000", "You have an error in your SQL syntax")
	}
}

// cannedTypes is a result with a column of each kind of binary encoding.
var cannedTypes = &sqltypes.Result{
	Fields: []*querypb.Field{
		{Name: "ti", Type: sqltypes.Int8, Charset: 63, ColumnLength: 4},
		{Name: "tu", Type: sqltypes.Uint8, Charset: 63, ColumnLength: 3, Flags: 32},
		{Name: "si", Type: sqltypes.Int16, Charset: 63, ColumnLength: 6},
		{Name: "mi", Type: sqltypes.Int24, Charset: 63, ColumnLength: 9},
		{Name: "i", Type: sqltypes.Int32, Charset: 63, ColumnLength: 11},
		{Name: "bi", Type: sqltypes.Int64, Charset: 63, ColumnLength: 20},
		{Name: "bu", Type: sqltypes.Uint64, Charset: 63, ColumnLength: 20, Flags: 32},
		{Name: "y", Type: sqltypes.Year, Charset: 63, ColumnLength: 4},
		{Name: "f", Type: sqltypes.Float32, Charset: 63, ColumnLength: 12, Decimals: 31},
		{Name: "d", Type: sqltypes.Float64, Charset: 63, ColumnLength: 22, Decimals: 31},
		{Name: "dec", Type: sqltypes.Decimal, Charset: 63, ColumnLength: 12, Decimals: 3},
		{Name: "da", Type: sqltypes.Date, Charset: 63, ColumnLength: 10},
		{Name: "dt", Type: sqltypes.Datetime, Charset: 63, ColumnLength: 26, Decimals: 6},
		{Name: "ts", Type: sqltypes.Timestamp, Charset: 63, ColumnLength: 19},
		{Name: "tm", Type: sqltypes.Time, Charset: 63, ColumnLength: 17, Decimals: 6},
		{Name: "vc", Type: sqltypes.VarChar, Charset: 45, ColumnLength: 40},
		{Name: "bl", Type: sqltypes.Blob, Charset: 63, ColumnLength: 65535},
		{Name: "n", Type: sqltypes.VarChar, Charset: 45, ColumnLength: 4},
	},
	Rows: [][]sqltypes.Value{
		row("-128", "255", "-32768", "-8388608", "-2147483648", "-9223372036854775808", "18446744073709551615", "1901", "1.5", "-2.25e-300", "-12345.678", "2024-02-29", "2024-02-29 23:59:58.000001", "1970-01-01 00:00:01", "-838:59:59.000000", "héllo", "\x00\xff", ""),
		row("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0.000", "0000-00-00", "0000-00-00 00:00:00.000000", "0000-00-00 00:00:00", "00:00:00.000000", "", "", "\x00"),
		row("127", "1", "32767", "8388607", "2147483647", "9223372036854775807", "1", "2155", "-3.4e+38", "1.7976931348623157e+308", "99999.999", "9999-12-31", "1000-01-01 00:00:00.500000", "2038-01-19 03:14:07", "34:05:06.070000", "x", "y", "null"),
	},
}

// row makes a canned row: each column's text as its field's type ("null"
// in the last column means NULL there).
func row(vals ...string) []sqltypes.Value {
	out := make([]sqltypes.Value, len(vals))
	for i, v := range vals {
		if i == len(vals)-1 && v == "null" {
			out[i] = sqltypes.NULL
			continue
		}
		out[i] = sqltypes.MakeTrusted(cannedTypes0[i], []byte(v))
	}
	return out
}

// cannedTypes0 lists cannedTypes' column types (row needs them before
// cannedTypes exists).
var cannedTypes0 = []querypb.Type{sqltypes.Int8, sqltypes.Uint8, sqltypes.Int16, sqltypes.Int24, sqltypes.Int32, sqltypes.Int64, sqltypes.Uint64, sqltypes.Year, sqltypes.Float32, sqltypes.Float64, sqltypes.Decimal, sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time, sqltypes.VarChar, sqltypes.Blob, sqltypes.VarChar}

func open(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// scanAll reads every row of rs as text (NULL as "<nil>").
func scanAll(t *testing.T, rs *sql.Rows) [][]string {
	t.Helper()
	cols, err := rs.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		line := make([]string, len(cols))
		for i, v := range vals {
			line[i] = "<nil>"
			if v.Valid {
				line[i] = v.String
			}
		}
		out = append(out, line)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTextAndBinaryRowsAgree reads the same rows over the text protocol
// and the binary one: the client must read the same values, and the text
// ones must be what the server sent.
func TestTextAndBinaryRowsAgree(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw"})
	db := open(t, "root:pw@tcp("+addr+")/")
	rs, err := db.Query("types")
	if err != nil {
		t.Fatal(err)
	}
	text := scanAll(t, rs)
	for i, r := range cannedTypes.Rows {
		for j, v := range r {
			want := "<nil>"
			if !v.IsNull() {
				want = v.ToString()
			}
			if text[i][j] != want {
				t.Errorf("text row %d column %s: %q, sent %q", i, cannedTypes.Fields[j].Name, text[i][j], want)
			}
		}
	}
	st, err := db.Prepare("types")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err = st.Query()
	if err != nil {
		t.Fatal(err)
	}
	bin := scanAll(t, rs)
	// How go-sql-driver prints the binary forms the text ones differ from:
	// floats through Go's shortest form, and zero dates.
	same := map[string]string{"1.5": "1.5", "-2.25e-300": "-2.25e-300", "-3.4e+38": "-3.4e+38", "1.7976931348623157e+308": "1.7976931348623157e+308"}
	for i := range text {
		for j := range text[i] {
			want := text[i][j]
			if _, ok := same[want]; ok && bin[i][j] == want {
				continue
			}
			if bin[i][j] != want {
				t.Errorf("binary row %d column %s: %q, text %q", i, cannedTypes.Fields[j].Name, bin[i][j], want)
			}
		}
	}
}

// TestParameterRoundTrip sends parameters of every Go type the driver
// binds, NULLs and long data among them, and reads them back from a
// server that echoes each with the type it was bound as.
func TestParameterRoundTrip(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw"})
	db := open(t, "root:pw@tcp("+addr+")/?parseTime=false")
	long := strings.Repeat("L", 70000) // over the driver's long-data threshold
	args := []any{int64(-5), uint64(1 << 63), 2.5, float32(0.75), true, "text", []byte{0, 1, 2}, nil,
		time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC), time.Date(2001, 1, 2, 0, 0, 0, 0, time.UTC), long, []byte(long)}
	want := []string{"-5", "9223372036854775808", "2.5", "0.75", "1", "text", "\x00\x01\x02", "<nil>",
		"2024-02-29 13:14:15.123456", "2001-01-02", long, long}
	q := strings.Repeat("?,", len(args))
	st, err := db.Prepare(q[:len(q)-1])
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for round := 0; round < 2; round++ { // the second reuses the bound types
		rs, err := st.Query(args...)
		if err != nil {
			t.Fatal(err)
		}
		got := scanAll(t, rs)
		if len(got) != 1 {
			t.Fatalf("%d rows", len(got))
		}
		for i := range want {
			if got[0][i] != want[i] {
				g, w := got[0][i], want[i]
				if len(g) > 40 {
					g, w = fmt.Sprintf("%d bytes", len(g)), fmt.Sprintf("%d bytes", len(w))
				}
				t.Errorf("round %d parameter %d (%T): %q, want %q", round, i+1, args[i], g, w)
			}
		}
	}
}

// TestManyParameters prepares 65535 placeholders, the protocol's most
// (go-sql-driver's TestPreparedManyCols).
func TestManyParameters(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw"})
	db := open(t, "root:pw@tcp("+addr+")/")
	const n = 65535
	st, err := db.Prepare("SELECT ?" + strings.Repeat(",?", n-1))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	args := make([]any, n)
	args[n-1] = "last"
	for _, nilArgs := range []bool{true, false} {
		if !nilArgs {
			for i := range args {
				args[i] = ""
			}
			args[n-1] = "last"
		}
		rs, err := st.Query(args...)
		if err != nil {
			t.Fatal(err)
		}
		got := scanAll(t, rs)
		if len(got) != 1 || len(got[0]) != n || got[0][n-1] != "last" || (nilArgs && got[0][0] != "<nil>") || (!nilArgs && got[0][0] != "") {
			t.Fatalf("nil args %v: %d rows, first %q", nilArgs, len(got), got[0][:1])
		}
	}
}

// TestMultipleResultSets reads three result sets of one command, and a
// result set followed by an error (a procedure that selects then
// signals).
func TestMultipleResultSets(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw"})
	db := open(t, "root:pw@tcp("+addr+")/?multiStatements=true")
	rs, err := db.Query("multi")
	if err != nil {
		t.Fatal(err)
	}
	var sets []string
	for {
		cols, _ := rs.Columns()
		sets = append(sets, fmt.Sprint(cols, scanAll(t, rs)))
		if !rs.NextResultSet() {
			break
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	rs.Close()
	if got, want := strings.Join(sets, " "), "[c1] [[10]] [c2] [[20] [21]] [c3] [[30] [31] [32]]"; got != want {
		t.Errorf("result sets %s, want %s", got, want)
	}

	rs, err = db.Query("signal")
	if err != nil {
		t.Fatal(err)
	}
	var vals []int
	for rs.Next() {
		var v int
		if err := rs.Scan(&v); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	rs.NextResultSet()
	var me *mysql.MySQLError
	if err := rs.Err(); !errors.As(err, &me) || me.Number != 45001 || me.Message != "an error" {
		t.Errorf("after the result set: %v", err)
	}
	rs.Close()
	if fmt.Sprint(vals) != "[42]" {
		t.Errorf("rows before the error %v", vals)
	}
	// The connection still answers.
	var s string
	if err := db.QueryRow("echo ok").Scan(&s); err != nil || s != "ok" {
		t.Errorf("after the error: %q %v", s, err)
	}
}

// TestOKPacket reads an OK's counts and info, and an error's number and
// state.
func TestOKPacket(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw"})
	db := open(t, "root:pw@tcp("+addr+")/")
	res, err := db.Exec("insert")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := res.RowsAffected()
	id, _ := res.LastInsertId()
	if n != 3 || id != 12 {
		t.Errorf("affected %d, insert id %d", n, id)
	}
	_, err = db.Exec("nonsense")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1064 || string(me.SQLState[:]) != "42000" {
		t.Errorf("error %v", err)
	}
}

// TestLogin checks passwords, the database and attributes the client
// sends, the switch from another plugin, and TLS offered and required.
func TestLogin(t *testing.T) {
	s := &protoServer{password: "secret"}
	addr := startProtoServer(t, s)
	if err := open(t, "root:secret@tcp("+addr+")/somedb?connectionAttributes=app:test").Ping(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	l := s.logins[len(s.logins)-1]
	s.mu.Unlock()
	if l.User != "root" || l.Database != "somedb" || l.Attributes["app"] != "test" {
		t.Errorf("login %+v", l)
	}
	var me *mysql.MySQLError
	if err := open(t, "root:wrong@tcp("+addr+")/").Ping(); !errors.As(err, &me) || me.Number != 1045 {
		t.Errorf("wrong password: %v", err)
	}

	// A greeting naming caching_sha2_password: the client answers for it,
	// the server switches it to mysql_native_password.
	sw := startProtoServer(t, &protoServer{password: "secret", plugin: "caching_sha2_password"})
	if err := open(t, "root:secret@tcp("+sw+")/").Ping(); err != nil {
		t.Errorf("auth switch: %v", err)
	}

	cfg := &tls.Config{Certificates: []tls.Certificate{testCert(t)}}
	ts := &protoServer{password: "secret", tls: cfg, requireTLS: true}
	taddr := startProtoServer(t, ts)
	if err := open(t, "root:secret@tcp("+taddr+")/?tls=skip-verify").Ping(); err != nil {
		t.Errorf("TLS: %v", err)
	}
	if err := open(t, "root:secret@tcp("+taddr+")/?tls=false").Ping(); !errors.As(err, &me) || me.Number != 1045 {
		t.Errorf("TLS required, plain login: %v", err)
	}
}

// testCert makes a self-signed certificate for 127.0.0.1.
func testCert(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "mysqlproto test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// TestLargePackets sends payloads around the 16 MiB piece size both ways
// and checks max_allowed_packet's refusal.
func TestLargePackets(t *testing.T) {
	addr := startProtoServer(t, &protoServer{password: "pw", maxPacket: 40 << 20})
	db := open(t, "root:pw@tcp("+addr+")/?maxAllowedPacket=67108864")
	db.SetMaxIdleConns(1)
	for _, n := range []int{maxPiece - len("echo ") - 1, maxPiece - len("echo "), maxPiece - len("echo ") + 1, 2*maxPiece - 5, 20 << 20} {
		body := strings.Repeat("x", n)
		var got string
		if err := db.QueryRow("echo " + body).Scan(&got); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if got != body {
			t.Fatalf("%d bytes: got %d back", n, len(got))
		}
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.ExecContext(context.Background(), "echo "+strings.Repeat("y", 41<<20))
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1153 {
		t.Errorf("over max_allowed_packet: %v", err)
	}
}

// TestPacketFraming reads back what WritePacket wrote, at every size
// around the piece boundary, and refuses a packet out of sequence.
func TestPacketFraming(t *testing.T) {
	for _, n := range []int{0, 1, maxPiece - 1, maxPiece, maxPiece + 1, 2 * maxPiece} {
		a, b := net.Pipe()
		w, r := NewConn(a), NewConn(b)
		want := bytes.Repeat([]byte{byte(n)}, n)
		go func() {
			_ = w.WritePacket(want)
			_ = w.Flush()
		}()
		got, err := r.ReadPacket()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d, %v", n, len(got), err)
		}
		a.Close()
		b.Close()
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go func() { _, _ = a.Write([]byte{1, 0, 0, 5, 'x'}) }()
	if _, err := NewConn(b).ReadPacket(); !errors.Is(err, ErrSequence) {
		t.Errorf("sequence 5 first: %v", err)
	}
}

// TestQuickTemporals: the allocation-free readers of dates and times
// agree with the general ones on the texts go-mysql-server prints.
func TestQuickTemporals(t *testing.T) {
	dts := []string{"2024-02-29", "0000-00-00", "9999-12-31 23:59:59", "1000-01-01 00:00:00.5", "2024-02-29 23:59:58.000001", "2024-02-29 01:02:03.123"}
	for _, s := range dts {
		q, ok := quickDatetime([]byte(s))
		g, err := slowDatetime([]byte(s))
		if !ok || err != nil || q != g {
			t.Errorf("%q: quick %+v %v, general %+v %v", s, q, ok, g, err)
		}
	}
	times := []string{"00:00:00", "-838:59:59.000000", "34:05:06.07", "1:02:03", "-00:00:00.000001", "123456:00:00"}
	for _, s := range times {
		q, ok := quickTime([]byte(s))
		g, err := slowTime([]byte(s))
		if !ok || err != nil || q != g {
			t.Errorf("%q: quick %+v %v, general %+v %v", s, q, ok, g, err)
		}
	}
	for _, s := range []string{"2024-2-29", "x024-02-29", "2024-02-29T01:02:03", "12:3:04", "a:00:00", "01:02:03.1234567"} {
		if _, ok := quickDatetime([]byte(s)); ok {
			t.Errorf("quickDatetime read %q", s)
		}
		if _, ok := quickTime([]byte(s)); ok && s != "12:3:04" {
			t.Errorf("quickTime read %q", s)
		}
	}
}
