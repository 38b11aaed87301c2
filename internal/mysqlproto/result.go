package mysqlproto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// Server status bits (SERVER_* in the protocol's documentation).
const (
	StatusInTrans          = 0x0001
	StatusAutocommit       = 0x0002
	StatusMoreResults      = 0x0008
	StatusNoGoodIndex      = 0x0010
	StatusNoIndex          = 0x0020
	StatusCursorExists     = 0x0040
	StatusLastRowSent      = 0x0080
	StatusDBDropped        = 0x0100
	StatusNoBackslashEsc   = 0x0200
	StatusMetadataChanged  = 0x0400
	StatusQueryWasSlow     = 0x0800
	StatusPSOutParams      = 0x1000
	StatusInTransReadOnly  = 0x2000
	StatusSessionStateSent = 0x4000
)

// OK is what an OK packet reports.
type OK struct {
	AffectedRows uint64
	InsertID     uint64
	Status       uint16
	Warnings     uint16
	Info         string
}

// WriteOK buffers an OK packet.
func (c *Conn) WriteOK(ok OK) error { return c.writeOK(0x00, ok) }

func (c *Conn) writeOK(header byte, ok OK) error {
	b := append(c.scratch[:0], header)
	b = appendLenInt(b, ok.AffectedRows)
	b = appendLenInt(b, ok.InsertID)
	b = binary.LittleEndian.AppendUint16(b, ok.Status)
	b = binary.LittleEndian.AppendUint16(b, ok.Warnings)
	if ok.Info != "" {
		// Length-encoded, as MariaDB and MySQL send it whatever the
		// client's capabilities (libmariadb reads a length first).
		b = appendLenString(b, ok.Info)
	}
	return c.writeScratch(b)
}

// WriteError buffers an ERR packet. state is the SQLSTATE (five
// characters; "HY000" when empty).
func (c *Conn) WriteError(code uint16, state, message string) error {
	if len(state) != 5 {
		state = "HY000"
	}
	b := make([]byte, 0, 9+len(message))
	b = append(b, 0xff, byte(code), byte(code>>8), '#')
	b = append(b, state...)
	b = append(b, message...)
	return c.WritePacket(b)
}

// WriteEOF buffers an EOF packet (a client that asked for
// DEPRECATE_EOF gets none between column definitions and rows; use
// EndRows at the end of rows).
func (c *Conn) WriteEOF(status, warnings uint16) error {
	return c.WritePacket([]byte{0xfe, byte(warnings), byte(warnings >> 8), byte(status), byte(status >> 8)})
}

// deprecateEOF reports whether the client asked for OK packets in place of
// EOF packets.
func (c *Conn) deprecateEOF() bool { return c.Capabilities&ClientDeprecateEOF != 0 }

// WriteColumns buffers the start of a result set: the column count, one
// definition per field, and (for a client without DEPRECATE_EOF) an EOF.
func (c *Conn) WriteColumns(fields []*querypb.Field, status uint16) error {
	if err := c.WritePacket(appendLenInt(nil, uint64(len(fields)))); err != nil {
		return err
	}
	if err := c.writeDefinitions(fields, false); err != nil {
		return err
	}
	if c.deprecateEOF() {
		return nil
	}
	return c.WriteEOF(status, 0)
}

// WriteCursorColumns buffers the answer to an execution that opened a
// cursor: the column count and definitions, then one end marker (EOF, or
// OK for DEPRECATE_EOF) carrying status, which should hold
// StatusCursorExists; the rows follow COM_STMT_FETCH.
func (c *Conn) WriteCursorColumns(fields []*querypb.Field, status, warnings uint16) error {
	if err := c.WritePacket(appendLenInt(nil, uint64(len(fields)))); err != nil {
		return err
	}
	if err := c.writeDefinitions(fields, false); err != nil {
		return err
	}
	return c.EndRows(status, warnings)
}

// writeDefinitions buffers one column definition per field (with the
// empty default COM_FIELD_LIST adds when withDefault).
func (c *Conn) writeDefinitions(fields []*querypb.Field, withDefault bool) error {
	for _, f := range fields {
		if err := c.writeScratch(appendDefinition(c.scratch[:0], f, withDefault)); err != nil {
			return err
		}
	}
	return nil
}

// WriteFieldList buffers COM_FIELD_LIST's answer: a definition per
// column, then EOF (or OK with DEPRECATE_EOF).
func (c *Conn) WriteFieldList(fields []*querypb.Field, status uint16) error {
	if err := c.writeDefinitions(fields, true); err != nil {
		return err
	}
	return c.EndRows(status, 0)
}

// appendDefinition appends a ColumnDefinition41 for f.
func appendDefinition(b []byte, f *querypb.Field, withDefault bool) []byte {
	typ, flags := sqltypes.TypeToMySQL(f.Type)
	if f.Flags != 0 {
		flags = int64(f.Flags)
	}
	b = appendLenString(b, "def")
	b = appendLenString(b, f.Database)
	b = appendLenString(b, f.Table)
	b = appendLenString(b, f.OrgTable)
	b = appendLenString(b, f.Name)
	b = appendLenString(b, f.OrgName)
	b = append(b, 0x0c)
	b = binary.LittleEndian.AppendUint16(b, uint16(f.Charset))
	b = binary.LittleEndian.AppendUint32(b, f.ColumnLength)
	b = append(b, byte(typ))
	b = binary.LittleEndian.AppendUint16(b, uint16(flags))
	b = append(b, byte(f.Decimals), 0, 0)
	if withDefault {
		b = append(b, 0xfb) // no default
	}
	return b
}

// EndRows buffers the end of a result set's rows: an EOF, or for a client
// with DEPRECATE_EOF an OK packet with the EOF header.
func (c *Conn) EndRows(status, warnings uint16) error {
	if c.deprecateEOF() {
		return c.writeOK(0xfe, OK{Status: status, Warnings: warnings})
	}
	return c.WriteEOF(status, warnings)
}

// WriteTextRow buffers a row of the text protocol (COM_QUERY).
func (c *Conn) WriteTextRow(row []sqltypes.Value) error {
	b := c.scratch[:0]
	for _, v := range row {
		if v.IsNull() {
			b = append(b, 0xfb)
		} else {
			b = appendLenBytes(b, v.Raw())
		}
	}
	return c.writeScratch(b)
}

// writeScratch writes b, built in c.scratch, and keeps its storage for
// the next packet unless it grew past what is worth keeping.
func (c *Conn) writeScratch(b []byte) error {
	if cap(b) <= maxScratch {
		c.scratch = b[:0]
	}
	return c.WritePacket(b)
}

// maxScratch is the largest packet buffer a Conn keeps between packets.
const maxScratch = 64 << 10

// WriteBinaryRow buffers a row of the binary protocol (COM_STMT_EXECUTE):
// each value in its column type's binary form, read from its text.
func (c *Conn) WriteBinaryRow(fields []*querypb.Field, row []sqltypes.Value) error {
	if len(fields) != len(row) {
		return fmt.Errorf("mysqlproto: %d values for %d columns", len(row), len(fields))
	}
	nb := (len(row) + 7 + 2) / 8
	b := append(c.scratch[:0], make([]byte, 1+nb)...)
	for i, v := range row {
		if v.IsNull() {
			bit := i + 2
			b[1+bit/8] |= 1 << (bit % 8)
			continue
		}
		var err error
		if b, err = appendBinaryValue(b, fields[i], v); err != nil {
			return err
		}
	}
	return c.writeScratch(b)
}

// appendBinaryValue appends v, of f's type, in the binary protocol's form.
func appendBinaryValue(b []byte, f *querypb.Field, v sqltypes.Value) ([]byte, error) {
	typ, _ := sqltypes.TypeToMySQL(f.Type)
	raw := v.Raw()
	bad := func(err error) ([]byte, error) {
		return b, fmt.Errorf("mysqlproto: %q as %v: %w", string(raw), f.Type, errors.New(err.Error()))
	}
	// The text is read in place (it is not kept: a parse error is
	// formatted at once).
	text := unsafe.String(unsafe.SliceData(raw), len(raw))
	switch typ {
	case typeTiny, typeShort, typeYear, typeLong, typeInt24, typeLongLong:
		size := 8
		switch typ {
		case typeTiny:
			size = 1
		case typeShort, typeYear:
			size = 2
		case typeLong, typeInt24:
			size = 4
		}
		var u uint64
		if sqltypes.IsUnsigned(f.Type) {
			n, err := strconv.ParseUint(text, 10, 64)
			if err != nil {
				return bad(err)
			}
			u = n
		} else {
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return bad(err)
			}
			u = uint64(n)
		}
		for i := 0; i < size; i++ {
			b = append(b, byte(u>>(8*i)))
		}
		return b, nil
	case typeFloat:
		x, err := strconv.ParseFloat(text, 32)
		if err != nil {
			return bad(err)
		}
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x))), nil
	case typeDouble:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return bad(err)
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x)), nil
	case typeDate, typeDatetime, typeTimestamp:
		if len(raw) == 0 {
			return append(b, 0), nil // the zero date, as go-mysql-server may print it
		}
		d, err := parseDatetime(raw)
		if err != nil {
			return bad(err)
		}
		return d.appendBinary(b), nil
	case typeTime:
		if len(raw) == 0 {
			return append(b, 0), nil
		}
		t, err := parseTime(raw)
		if err != nil {
			return bad(err)
		}
		return t.appendBinary(b), nil
	default:
		return appendLenBytes(b, raw), nil
	}
}

// MySQL column type codes (MYSQL_TYPE_*) of the binary row encodings.
const (
	typeTiny      = 1
	typeShort     = 2
	typeLong      = 3
	typeFloat     = 4
	typeDouble    = 5
	typeTimestamp = 7
	typeLongLong  = 8
	typeInt24     = 9
	typeDate      = 10
	typeTime      = 11
	typeDatetime  = 12
	typeYear      = 13
)
