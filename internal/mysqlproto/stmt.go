package mysqlproto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// Stmt is what the protocol keeps of a prepared statement between
// commands: its parameter count, the parameter types the client bound
// last, and the long data sent for the next execution.
//
// Concurrency: owned by its connection's goroutine.
type Stmt struct {
	ID      uint32
	Params  int
	Columns int
	types   []querypb.Type // per parameter, from the last execution that bound them
	long    map[int][]byte // COM_STMT_SEND_LONG_DATA's, until the next execution or reset
}

// NewStmt makes the record of a statement with params placeholders and
// columns result columns.
func NewStmt(id uint32, params, columns int) *Stmt {
	return &Stmt{ID: id, Params: params, Columns: columns}
}

// AddLongData appends one COM_STMT_SEND_LONG_DATA piece to a parameter.
func (s *Stmt) AddLongData(param int, data []byte) {
	if s.long == nil {
		s.long = map[int][]byte{}
	}
	s.long[param] = append(s.long[param], data...)
}

// Reset forgets the long data sent (COM_STMT_RESET).
func (s *Stmt) Reset() { s.long = nil }

// WritePrepareOK buffers COM_STMT_PREPARE's answer: the statement's id
// and counts, then a definition per parameter and per column, each list
// followed by an EOF unless the client asked for DEPRECATE_EOF.
func (c *Conn) WritePrepareOK(s *Stmt, params, columns []*querypb.Field, warnings uint16, status uint16) error {
	b := make([]byte, 0, 12)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint32(b, s.ID)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(columns)))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(params)))
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint16(b, warnings)
	if err := c.WritePacket(b); err != nil {
		return err
	}
	for _, list := range [][]*querypb.Field{params, columns} {
		if len(list) == 0 {
			continue
		}
		if err := c.writeDefinitions(list, false); err != nil {
			return err
		}
		if !c.deprecateEOF() {
			if err := c.WriteEOF(status, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// Execute is a parsed COM_STMT_EXECUTE.
type Execute struct {
	Stmt   *Stmt
	Cursor byte // CURSOR_TYPE_* flags
	// Args holds one value per parameter, in order (NULL for a NULL).
	Args []sqltypes.Value
}

// ErrUnknownStmt is returned by ParseExecute for a statement id that
// lookup does not know.
var ErrUnknownStmt = errors.New("mysqlproto: unknown prepared statement")

// StmtID reads the statement id that COM_STMT_EXECUTE, SEND_LONG_DATA,
// RESET, CLOSE and FETCH payloads (command byte removed) begin with.
func StmtID(p []byte) (uint32, bool) {
	if len(p) < 4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(p), true
}

// ParseExecute reads a COM_STMT_EXECUTE payload (the command byte
// removed). The parameters' types are those the payload binds, or the
// statement's last ones; long data sent for a parameter is its value and
// is then forgotten.
func ParseExecute(p []byte, lookup func(id uint32) *Stmt) (*Execute, error) {
	r := &reader{b: p}
	id := r.uint32()
	cursor := r.byte1()
	r.uint32() // iteration count: always 1 (MariaDB's bulk form is not offered)
	if r.err != nil {
		return nil, fmt.Errorf("mysqlproto: COM_STMT_EXECUTE: %w", r.err)
	}
	s := lookup(id)
	if s == nil {
		return nil, ErrUnknownStmt
	}
	ex := &Execute{Stmt: s, Cursor: cursor}
	if s.Params == 0 {
		return ex, nil
	}
	nulls := r.bytes((s.Params + 7) / 8)
	if bound := r.byte1(); r.err == nil && bound == 1 {
		types := make([]querypb.Type, s.Params)
		for i := range types {
			mt, flags := r.byte1(), r.byte1()
			if r.err != nil {
				break
			}
			t, err := paramType(mt, flags)
			if err != nil {
				return nil, err
			}
			types[i] = t
		}
		s.types = types
	}
	if r.err != nil {
		return nil, fmt.Errorf("mysqlproto: COM_STMT_EXECUTE: %w", r.err)
	}
	if s.types == nil {
		return nil, errors.New("mysqlproto: COM_STMT_EXECUTE without parameter types")
	}
	ex.Args = make([]sqltypes.Value, s.Params)
	for i := range ex.Args {
		if d, ok := s.long[i]; ok {
			ex.Args[i] = sqltypes.MakeTrusted(longType(s.types[i]), d)
			continue
		}
		if nulls[i/8]&(1<<(i%8)) != 0 || s.types[i] == sqltypes.Null {
			ex.Args[i] = sqltypes.NULL
			continue
		}
		v, err := readArg(r, s.types[i])
		if err != nil {
			return nil, fmt.Errorf("mysqlproto: COM_STMT_EXECUTE parameter %d: %w", i+1, err)
		}
		ex.Args[i] = v
	}
	s.long = nil
	return ex, nil
}

// longType is the type of a parameter given as long data: text or bytes
// as bound.
func longType(t querypb.Type) querypb.Type {
	if sqltypes.IsText(t) || sqltypes.IsBinary(t) {
		return t
	}
	return sqltypes.Blob
}

// paramType is the type of a bound parameter (flags' 0x80 bit: unsigned).
func paramType(mt, flags byte) (querypb.Type, error) {
	var f int64
	if flags&0x80 != 0 {
		f = 32 // the column flag UNSIGNED
	}
	t, err := sqltypes.MySQLToType(int64(mt), f)
	if err != nil {
		return 0, fmt.Errorf("mysqlproto: parameter type %d: %w", mt, err)
	}
	return t, nil
}

// readArg reads one parameter value of type t.
func readArg(r *reader, t querypb.Type) (sqltypes.Value, error) {
	var v sqltypes.Value
	switch t {
	case sqltypes.Int8:
		v = sqltypes.NewInt64(int64(int8(r.byte1())))
	case sqltypes.Uint8:
		v = sqltypes.NewUint64(uint64(r.byte1()))
	case sqltypes.Int16, sqltypes.Year:
		v = sqltypes.NewInt64(int64(int16(r.uint16())))
	case sqltypes.Uint16:
		v = sqltypes.NewUint64(uint64(r.uint16()))
	case sqltypes.Int24, sqltypes.Int32:
		v = sqltypes.NewInt64(int64(int32(r.uint32())))
	case sqltypes.Uint24, sqltypes.Uint32:
		v = sqltypes.NewUint64(uint64(r.uint32()))
	case sqltypes.Int64:
		v = sqltypes.NewInt64(int64(r.uint64()))
	case sqltypes.Uint64:
		v = sqltypes.NewUint64(r.uint64())
	case sqltypes.Float32:
		v = sqltypes.NewFloat64(float64(math.Float32frombits(r.uint32())))
	case sqltypes.Float64:
		v = sqltypes.NewFloat64(math.Float64frombits(r.uint64()))
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		v = readDatetime(r, t)
	case sqltypes.Time:
		v = readTime(r)
	default:
		b := r.lenBytes()
		v = sqltypes.MakeTrusted(t, append([]byte(nil), b...))
	}
	if r.err != nil {
		return sqltypes.NULL, r.err
	}
	return v, nil
}

// readDatetime reads a binary DATE/DATETIME/TIMESTAMP as its text.
func readDatetime(r *reader, t querypb.Type) sqltypes.Value {
	n := r.byte1()
	b := r.bytes(int(n))
	if r.err != nil {
		return sqltypes.NULL
	}
	var d datetime
	if n >= 4 {
		d.year, d.month, d.day = binary.LittleEndian.Uint16(b), b[2], b[3]
	}
	if n >= 7 {
		d.hour, d.min, d.sec = b[4], b[5], b[6]
	}
	if n >= 11 {
		d.micro = binary.LittleEndian.Uint32(b[7:])
	}
	s := fmt.Sprintf("%04d-%02d-%02d", d.year, d.month, d.day)
	if t != sqltypes.Date || n >= 7 {
		s += fmt.Sprintf(" %02d:%02d:%02d", d.hour, d.min, d.sec)
		if d.micro != 0 {
			s += fmt.Sprintf(".%06d", d.micro)
		}
		if t == sqltypes.Date {
			t = sqltypes.Datetime
		}
	}
	return sqltypes.MakeTrusted(t, []byte(s))
}

// readTime reads a binary TIME as its text.
func readTime(r *reader) sqltypes.Value {
	n := r.byte1()
	b := r.bytes(int(n))
	if r.err != nil {
		return sqltypes.NULL
	}
	var t span
	if n >= 8 {
		t.neg = b[0] == 1
		t.days, t.hour, t.min, t.sec = binary.LittleEndian.Uint32(b[1:]), b[5], b[6], b[7]
	}
	if n >= 12 {
		t.micro = binary.LittleEndian.Uint32(b[8:])
	}
	s := ""
	if t.neg {
		s = "-"
	}
	s += fmt.Sprintf("%02d:%02d:%02d", uint64(t.days)*24+uint64(t.hour), t.min, t.sec)
	if t.micro != 0 {
		s += fmt.Sprintf(".%06d", t.micro)
	}
	return sqltypes.MakeTrusted(sqltypes.Time, []byte(s))
}

// ParseLongData reads a COM_STMT_SEND_LONG_DATA payload (command byte
// removed).
func ParseLongData(p []byte) (stmt uint32, param int, data []byte, err error) {
	if len(p) < 6 {
		return 0, 0, nil, errShort
	}
	return binary.LittleEndian.Uint32(p), int(binary.LittleEndian.Uint16(p[4:])), p[6:], nil
}
