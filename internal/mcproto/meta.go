package mcproto

import (
	"encoding/base64"
	"strconv"
)

// The meta protocol (memcached 1.6): mg, ms, md, ma, mn, me. A request
// is `<cmd> <key> [<datalen>] <flag>*`, each flag one letter and its
// token (T30, F5, O<opaque>...); answers are two-letter codes followed
// by the flags that return something, in the order they were asked.

// Meta commands (Request.Cmd; parsed by parseMeta).
const (
	CmdMg Cmd = NumCmds + iota
	CmdMs
	CmdMd
	CmdMa
	CmdMn
	CmdMe
	NumAllCmds
)

var metaNames = [...]string{"mg", "ms", "md", "ma", "mn", "me"}

// IsMeta reports whether c is a meta command.
func (c Cmd) IsMeta() bool { return c >= CmdMg && c < NumAllCmds }

// Meta errors.
const (
	ErrInvalidFlag   Error = iota + numErrors // CLIENT_ERROR invalid flag
	ErrDuplicateFlag                          // CLIENT_ERROR duplicate flag
	ErrOpaqueLong                             // CLIENT_ERROR opaque token too long
	ErrMsMode                                 // CLIENT_ERROR invalid mode for ms M token
	ErrMaMode                                 // CLIENT_ERROR invalid mode for ma M token
	ErrBadToken                               // CLIENT_ERROR bad token in command line format
	ErrKeyDecode                              // CLIENT_ERROR error decoding key
	numAllErrors
)

var metaErrLines = [...]string{"CLIENT_ERROR invalid flag\r\n", "CLIENT_ERROR duplicate flag\r\n",
	"CLIENT_ERROR opaque token too long\r\n", "CLIENT_ERROR invalid mode for ms M token\r\n",
	"CLIENT_ERROR invalid mode for ma M token\r\n", "CLIENT_ERROR bad token in command line format\r\n",
	"CLIENT_ERROR error decoding key\r\n"}

// MetaFlags are a meta request's flags: Has says which letters came
// (bit c-'A' for 'A'..'z'), Order lists them as asked (the return flags
// are written in that order), the tokens hold the arguments.
type MetaFlags struct {
	Has   uint64
	Order []byte
	// Arguments of the flags that take one.
	Opaque        []byte // O
	TTL           int64  // T
	NewTTL        int64  // N (autovivify with that TTL)
	ClientFlags   uint32 // F
	CompareCas    uint64 // C
	Initial       uint64 // J (ma)
	Delta         uint64 // D (ma)
	Mode          byte   // M
	Base64Key     bool   // b: the key was sent in base64 (q, noreply: Flag('q'))
	RawKey        []byte // the key as sent (base64 when b)
	RecacheWithin int64  // R
}

// Flag reports whether flag c was given.
func (f *MetaFlags) Flag(c byte) bool { return c >= 'A' && c <= 'z' && f.Has&(1<<(c-'A')) != 0 }

// metaValid are the flags each meta command takes, memcached 1.6.18's.
func metaValid(cmd Cmd) string {
	switch cmd {
	case CmdMg:
		return "bcfhklOqstuvNRT"
	case CmdMs:
		return "bcCFIkOqTM"
	case CmdMd:
		return "bCIkOqT"
	case CmdMa:
		return "bCNJDTMOqtcvk"
	case CmdMe:
		return "b"
	}
	return ""
}

// parseMeta parses a meta command's words after the command word.
func parseMeta(cmd Cmd, args [][]byte, r *Request) Error {
	if cmd == CmdMn {
		r.Cmd = cmd
		return ErrNone
	}
	if len(args) == 0 {
		return ErrUnknown
	}
	r.Meta.RawKey = args[0]
	key := args[0]
	flags := args[1:]
	if cmd == CmdMs {
		if len(args) < 2 {
			return ErrFormat
		}
		n, ok := parseInt(args[1])
		if !ok || n < 0 {
			return ErrFormat
		}
		r.Bytes = int(n)
		r.hasData = true // a later error swallows the data block
		flags = args[2:]
	}
	f := &r.Meta
	for _, tok := range flags {
		if len(tok) == 0 {
			continue
		}
		c := tok[0]
		if c < 'A' || c > 'z' || !containsByte(metaValid(cmd), c) {
			return ErrInvalidFlag
		}
		bit := uint64(1) << (c - 'A')
		if f.Has&bit != 0 {
			return ErrDuplicateFlag
		}
		f.Has |= bit
		f.Order = append(f.Order, c)
		arg := tok[1:]
		var ok = true
		switch c {
		case 'O':
			if len(arg) > 32 {
				return ErrOpaqueLong
			}
			f.Opaque = arg
		case 'T':
			f.TTL, ok = parseInt(arg)
		case 'N':
			f.NewTTL, ok = parseInt(arg)
		case 'R':
			f.RecacheWithin, ok = parseInt(arg)
		case 'F':
			var v uint64
			v, ok = ParseUint64(arg)
			f.ClientFlags = uint32(v)
		case 'C':
			f.CompareCas, ok = ParseUint64(arg)
		case 'J':
			f.Initial, ok = ParseUint64(arg)
		case 'D':
			f.Delta, ok = ParseUint64(arg)
		case 'M':
			if len(arg) != 1 {
				ok = false
			} else {
				f.Mode = arg[0]
			}
		case 'b':
			f.Base64Key = true
		}
		if !ok {
			if c == 'M' {
				if cmd == CmdMs {
					return ErrMsMode
				}
				return ErrMaMode
			}
			return ErrBadToken
		}
	}
	if f.Base64Key {
		dec, err := base64.StdEncoding.AppendDecode(nil, key)
		if err != nil || len(dec) == 0 {
			return ErrKeyDecode
		}
		key = dec
	}
	if len(key) > KeyMax || len(key) == 0 {
		return ErrFormat
	}
	r.Keys = append(r.Keys, key)
	r.Cmd = cmd
	switch cmd {
	case CmdMs:
		switch f.Mode {
		case 0, 'S', 's', 'E', 'e', 'A', 'a', 'P', 'p', 'R', 'r':
		default:
			return ErrMsMode
		}
	case CmdMa:
		switch f.Mode {
		case 0, 'I', 'i', '+', 'D', 'd', '-':
		default:
			return ErrMaMode
		}
		if !f.Flag('D') {
			f.Delta = 1
		}
	}
	return ErrNone
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// MetaItem is what a meta answer reports of an item.
type MetaItem struct {
	Value []byte
	Flags uint32
	Cas   uint64
	TTL   int64 // seconds left, -1 none
	// Tokens are mg's recache flags, " Z", " X", " W" as they apply,
	// written after the return flags.
	Tokens string
	// Hit and Idle are what h and l answer: fetched before, seconds
	// since the last access.
	Hit  bool
	Idle int64
}

// AppendMeta appends a meta answer: code (VA, HD, EN, NS, EX, NF), then
// the flags of f that return something, in the order asked (O and k on
// every answer, k followed by b when the key came in base64; the item's
// flags only with an item, c also on a failed ms), then for VA the
// value.
func AppendMeta(out []byte, code string, f *MetaFlags, it *MetaItem) []byte {
	out = append(out, code...)
	if code == "VA" {
		out = append(out, ' ')
		out = strconv.AppendInt(out, int64(len(it.Value)), 10)
	}
	for _, c := range f.Order {
		switch c {
		case 'O':
			out = append(out, " O"...)
			out = append(out, f.Opaque...)
			continue
		case 'k':
			out = append(out, " k"...)
			out = append(out, f.RawKey...)
			if f.Base64Key {
				out = append(out, " b"...)
			}
			continue
		}
		if it == nil {
			continue
		}
		switch c {
		case 'f':
			out = append(out, " f"...)
			out = strconv.AppendUint(out, uint64(it.Flags), 10)
		case 't':
			out = append(out, " t"...)
			out = strconv.AppendInt(out, it.TTL, 10)
		case 's':
			out = append(out, " s"...)
			out = strconv.AppendInt(out, int64(len(it.Value)), 10)
		case 'c':
			out = append(out, " c"...)
			out = strconv.AppendUint(out, it.Cas, 10)
		case 'h':
			if it.Hit {
				out = append(out, " h1"...)
			} else {
				out = append(out, " h0"...)
			}
		case 'l':
			out = append(out, " l"...)
			out = strconv.AppendInt(out, it.Idle, 10)
		}
	}
	if it != nil {
		out = append(out, it.Tokens...)
	}
	out = append(out, "\r\n"...)
	if code == "VA" {
		out = append(out, it.Value...)
		out = append(out, "\r\n"...)
	}
	return out
}
