package mcproto

import "encoding/binary"

// The binary protocol (memcached 1.6 still serves it; libmemcached and
// spymemcached clients speak it): a 24-byte header, then extras, key and
// value. A connection whose first byte is BinaryMagic speaks it.

// Binary header magics.
const (
	BinaryMagic    = 0x80 // request
	BinaryResMagic = 0x81 // response
	BinaryHeader   = 24
)

// Binary opcodes.
const (
	BinGet       = 0x00
	BinSet       = 0x01
	BinAdd       = 0x02
	BinReplace   = 0x03
	BinDelete    = 0x04
	BinIncrement = 0x05
	BinDecrement = 0x06
	BinQuit      = 0x07
	BinFlush     = 0x08
	BinGetQ      = 0x09
	BinNoop      = 0x0a
	BinVersion   = 0x0b
	BinGetK      = 0x0c
	BinGetKQ     = 0x0d
	BinAppend    = 0x0e
	BinPrepend   = 0x0f
	BinStat      = 0x10
	BinSetQ      = 0x11
	BinAddQ      = 0x12
	BinReplaceQ  = 0x13
	BinDeleteQ   = 0x14
	BinIncrQ     = 0x15
	BinDecrQ     = 0x16
	BinQuitQ     = 0x17
	BinFlushQ    = 0x18
	BinAppendQ   = 0x19
	BinPrependQ  = 0x1a
	BinVerbosity = 0x1b
	BinTouch     = 0x1c
	BinGAT       = 0x1d
	BinGATQ      = 0x1e
	BinSASLList  = 0x20
	BinSASLAuth  = 0x21
	BinSASLStep  = 0x22
	BinGATK      = 0x23
	BinGATKQ     = 0x24
)

// Binary statuses and memcached's text for each.
const (
	BinOK           = 0x0000
	BinNotFound     = 0x0001
	BinExists       = 0x0002
	BinTooLarge     = 0x0003
	BinInvalid      = 0x0004
	BinNotStored    = 0x0005
	BinNonNumeric   = 0x0006
	BinAuthError    = 0x0020
	BinAuthContinue = 0x0021
	BinUnknown      = 0x0081
	BinNoMemory     = 0x0082
)

// BinStatusText is the body memcached sends with a status.
func BinStatusText(status uint16) string {
	switch status {
	case BinNotFound:
		return "Not found"
	case BinExists:
		return "Data exists for key."
	case BinTooLarge:
		return "Too large."
	case BinInvalid:
		return "Invalid arguments"
	case BinNotStored:
		return "Not stored."
	case BinNonNumeric:
		return "Non-numeric server-side value for incr or decr"
	case BinAuthError:
		return "Auth failure."
	case BinUnknown:
		return "Unknown command"
	case BinNoMemory:
		return "Out of memory"
	}
	return ""
}

// BinRequest is a framed binary request; slices alias the input.
type BinRequest struct {
	Opcode byte
	Opaque uint32
	Cas    uint64
	Extras []byte
	Key    []byte
	Value  []byte
}

// NextBinary frames the first binary request of in: n is its length
// (header and body), ok false while it is incomplete. bad is set for a
// header that is no request (wrong magic, lengths that do not add up):
// memcached closes the connection.
func NextBinary(in []byte, r *BinRequest) (n int, ok, bad bool) {
	if len(in) < BinaryHeader {
		return 0, false, false
	}
	if in[0] != BinaryMagic {
		return 0, true, true
	}
	keyLen := int(binary.BigEndian.Uint16(in[2:4]))
	extLen := int(in[4])
	body := int(binary.BigEndian.Uint32(in[8:12]))
	if keyLen+extLen > body {
		return 0, true, true
	}
	n = BinaryHeader + body
	if len(in) < n {
		return n, false, false
	}
	r.Opcode = in[1]
	r.Opaque = binary.BigEndian.Uint32(in[12:16])
	r.Cas = binary.BigEndian.Uint64(in[16:24])
	b := in[BinaryHeader:n]
	r.Extras, r.Key, r.Value = b[:extLen], b[extLen:extLen+keyLen], b[extLen+keyLen:]
	return n, true, false
}

// BinaryBodyLen is the body length a header at the start of in
// announces (0 when in holds no whole header).
func BinaryBodyLen(in []byte) int {
	if len(in) < BinaryHeader {
		return 0
	}
	return int(binary.BigEndian.Uint32(in[8:12]))
}

// AppendBinary appends a response: opcode, status, the request's
// opaque, cas, and extras, key and value.
func AppendBinary(out []byte, opcode byte, status uint16, opaque uint32, cas uint64, extras, key, value []byte) []byte {
	var h [BinaryHeader]byte
	h[0] = BinaryResMagic
	h[1] = opcode
	binary.BigEndian.PutUint16(h[2:4], uint16(len(key)))
	h[4] = byte(len(extras))
	binary.BigEndian.PutUint16(h[6:8], status)
	binary.BigEndian.PutUint32(h[8:12], uint32(len(extras)+len(key)+len(value)))
	binary.BigEndian.PutUint32(h[12:16], opaque)
	binary.BigEndian.PutUint64(h[16:24], cas)
	out = append(out, h[:]...)
	out = append(out, extras...)
	out = append(out, key...)
	return append(out, value...)
}

// AppendBinaryError appends a response of status with memcached's text.
func AppendBinaryError(out []byte, opcode byte, status uint16, opaque uint32) []byte {
	return AppendBinary(out, opcode, status, opaque, 0, nil, nil, []byte(BinStatusText(status)))
}
