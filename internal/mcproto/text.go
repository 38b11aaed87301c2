// Package mcproto is the memcached wire codec: framing and parsing of
// the text protocol's requests and the answers' bytes, as memcached 1.6
// writes them. It does no I/O and holds no state between calls.
//
// Concurrency: a Request and the slices it aliases are its caller's;
// the package has no shared mutable state.
package mcproto

import (
	"bytes"
	"math"
	"strconv"
)

// Cmd is a text-protocol command.
type Cmd uint8

// Commands. CmdNone is a line that is no command (answered ERROR).
const (
	CmdNone Cmd = iota
	CmdGet
	CmdGets
	CmdGat
	CmdGats
	CmdSet
	CmdAdd
	CmdReplace
	CmdAppend
	CmdPrepend
	CmdCas
	CmdDelete
	CmdIncr
	CmdDecr
	CmdTouch
	CmdFlushAll
	CmdVersion
	CmdVerbosity
	CmdStats
	CmdQuit
	NumCmds
)

var cmdNames = [NumCmds]string{"none", "get", "gets", "gat", "gats", "set", "add", "replace", "append",
	"prepend", "cas", "delete", "incr", "decr", "touch", "flush_all", "version", "verbosity", "stats", "quit"}

func (c Cmd) String() string {
	if c >= NumCmds {
		return metaNames[c-NumCmds]
	}
	return cmdNames[c]
}

// IsStorage reports whether c is followed by a data block.
func (c Cmd) IsStorage() bool { return c >= CmdSet && c <= CmdCas }

// IsRetrieval reports whether c is get, gets, gat or gats.
func (c Cmd) IsRetrieval() bool { return c >= CmdGet && c <= CmdGats }

// KeyMax is the longest key memcached takes.
const KeyMax = 250

// LineMax is the longest command line held incomplete: a longer one
// that starts with no retrieval command closes the connection, as
// memcached does past 2048 bytes.
const LineMax = 2048

// Error is a text-protocol error answer.
type Error uint8

// Errors, as memcached words them.
const (
	ErrNone        Error = iota
	ErrUnknown           // ERROR
	ErrFormat            // CLIENT_ERROR bad command line format
	ErrDeleteUsage       // CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]
	ErrDataChunk         // CLIENT_ERROR bad data chunk
	ErrTooLarge          // SERVER_ERROR object too large for cache
	ErrDelta             // CLIENT_ERROR invalid numeric delta argument
	ErrNonNumeric        // CLIENT_ERROR cannot increment or decrement non-numeric value
	ErrExptime           // CLIENT_ERROR invalid exptime argument
	ErrFlushOff          // CLIENT_ERROR flush_all not allowed
	ErrStatsDetail       // CLIENT_ERROR usage: stats detail on|off|dump
	ErrAuth              // CLIENT_ERROR unauthenticated
	ErrDenied            // CLIENT_ERROR access denied (the account's grants)
	ErrAuthFailed        // CLIENT_ERROR authentication failure
	ErrStorage           // SERVER_ERROR out of memory storing object (a failed commit)
	numErrors
)

var errLines = [numErrors]string{"", "ERROR\r\n", "CLIENT_ERROR bad command line format\r\n",
	"CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n",
	"CLIENT_ERROR bad data chunk\r\n", "SERVER_ERROR object too large for cache\r\n",
	"CLIENT_ERROR invalid numeric delta argument\r\n",
	"CLIENT_ERROR cannot increment or decrement non-numeric value\r\n",
	"CLIENT_ERROR invalid exptime argument\r\n", "CLIENT_ERROR flush_all not allowed\r\n",
	"CLIENT_ERROR usage: stats detail on|off|dump\r\n", "CLIENT_ERROR unauthenticated\r\n", "CLIENT_ERROR access denied\r\n",
	"CLIENT_ERROR authentication failure\r\n", "SERVER_ERROR out of memory storing object\r\n"}

// AppendError appends e's answer line.
func AppendError(out []byte, e Error) []byte {
	if e >= numErrors {
		return append(out, metaErrLines[e-numErrors]...)
	}
	return append(out, errLines[e]...)
}

// Request is one parsed command. Slices alias the input.
type Request struct {
	Cmd Cmd
	// Keys are the keys of a retrieval (all of them) or the key of any
	// other command (Keys[0]).
	Keys    [][]byte
	Flags   uint32
	Exptime int64  // as sent: relative seconds, a Unix time, or negative
	Bytes   int    // length of the data block (storage commands)
	Cas     uint64 // cas's unique
	Delta   uint64 // incr/decr amount, flush_all's delay
	// HasDelay says flush_all had a delay; Verbosity is verbosity's
	// level.
	HasDelay bool
	// NoReply is set, even for a request answered with an error, when
	// the last word of its line is noreply, wherever that falls (a key
	// or a number named noreply too, as memcached's set_noreply_maybe
	// reads it): memcached then answers nothing (but ERROR for a line
	// that is no command).
	NoReply bool
	// Args are the words after stats.
	Args [][]byte
	Data []byte // the data block, without its CRLF
	// Meta holds a meta command's flags.
	Meta MetaFlags
	// hasData says an ms line gave its data length: an error in the rest
	// of the line swallows the data block (memcached reads past it).
	hasData bool
}

// Reset empties r for the next Parse, keeping its buffers.
func (r *Request) Reset() {
	keys, args, order := r.Keys[:0], r.Args[:0], r.Meta.Order[:0]
	*r = Request{Keys: keys, Args: args}
	r.Meta.Order = order
}

// itemOverhead is what memcached 1.6 adds to a value and its key in an
// item (its header, the CAS, the key's NUL and the data's CRLF): a value
// fits when value, key and overhead are at most the item size limit.
const itemOverhead = 59

// Frame is the result of framing the input's first request.
type Frame struct {
	// N is how many bytes of the input the request takes (its line and,
	// for a storage command with a usable header, its data block and CRLF).
	N int
	// Swallow is how many bytes after N to discard: a data block whose
	// item is too large for MaxItem (the answer is ErrTooLarge).
	Swallow int
}

// Next frames and parses the first request of in into r. It returns
// ok false when in holds no complete request yet. Otherwise r holds the
// request, or r.Cmd is CmdNone and err is the answer for a line that is
// no valid request; f says how much of in the request takes. maxItem
// bounds an item (value, key and itemOverhead): a larger data block is
// swallowed, answered ErrTooLarge, its key left in r.Keys (memcached
// drops the item it would have replaced).
func Next(in []byte, maxItem int, r *Request) (f Frame, err Error, ok bool) {
	r.Reset()
	nl := bytes.IndexByte(in, '\n')
	if nl < 0 {
		return Frame{}, ErrNone, false
	}
	line := in[:nl]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	f.N = nl + 1
	err = parseLine(line, r)
	if err != ErrNone && r.hasData {
		r.Cmd = CmdNone
		f.Swallow = r.Bytes + 2
		return f, err, true
	}
	if err != ErrNone || !(r.Cmd.IsStorage() || r.Cmd == CmdMs) {
		return f, err, true
	}
	if r.Bytes+len(r.Keys[0])+itemOverhead > maxItem {
		f.Swallow = r.Bytes + 2
		r.Cmd = CmdNone
		return f, ErrTooLarge, true
	}
	need := f.N + r.Bytes + 2
	if len(in) < need {
		return Frame{}, ErrNone, false
	}
	data := in[f.N:need]
	f.N = need
	if data[r.Bytes] != '\r' || data[r.Bytes+1] != '\n' {
		r.Cmd = CmdNone
		return f, ErrDataChunk, true
	}
	r.Data = data[:r.Bytes]
	return f, ErrNone, true
}

// Partial reports how long an incomplete request starting in may grow
// before the connection is closed: a line LineMax (a retrieval's line
// without bound but the caller's), a storage command whose line is
// complete its data block besides.
func Partial(in []byte, maxItem, maxLine int) int {
	if bytes.IndexByte(in, '\n') >= 0 {
		return maxLine + maxItem + 2
	}
	for _, p := range [...]string{"get ", "gets ", "gat ", "gats "} {
		if bytes.HasPrefix(in, []byte(p)) {
			return maxLine
		}
	}
	return LineMax
}

// tokens splits a line on spaces, as memcached does (runs of spaces
// separate; tabs belong to the words).
func tokens(line []byte, dst [][]byte) [][]byte {
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		dst = append(dst, line[i:j])
		i = j
	}
	return dst
}

var cmdWords = map[string]Cmd{}

func init() {
	for c := CmdGet; c < NumAllCmds; c++ {
		cmdWords[c.String()] = c
	}
}

// parseLine parses a command line (without its line end).
func parseLine(line []byte, r *Request) Error {
	var tokArr [24][]byte
	tok := tokens(line, tokArr[:0])
	if len(tok) == 0 {
		return ErrUnknown
	}
	cmd, ok := cmdWords[string(tok[0])]
	if !ok {
		return ErrUnknown
	}
	args := tok[1:]
	if cmd.IsMeta() {
		return parseMeta(cmd, args, r)
	}
	switch {
	case cmd == CmdGet || cmd == CmdGets:
		if len(args) == 0 {
			return ErrUnknown
		}
		return r.setKeys(cmd, args)
	case cmd == CmdGat || cmd == CmdGats:
		if len(args) == 0 {
			return ErrUnknown
		}
		exp, ok := parseInt(args[0])
		if !ok {
			return ErrExptime
		}
		r.Exptime = exp
		return r.setKeys(cmd, args[1:])
	case cmd.IsStorage():
		return parseStorage(cmd, args, r)
	}
	r.Cmd = cmd
	switch cmd {
	case CmdDelete:
		// delete <key> [0] [noreply]
		if len(args) == 0 || len(args) > 3 {
			return ErrUnknown
		}
		// noreply counts only after the key, as memcached reads it
		extra := args[1:]
		if len(extra) > 0 && isNoReply(extra[len(extra)-1]) {
			r.NoReply, extra = true, extra[:len(extra)-1]
		}
		if len(args[0]) > KeyMax {
			return ErrFormat
		}
		r.Keys = append(r.Keys, args[0])
		if len(extra) > 1 || (len(extra) == 1 && string(extra[0]) != "0") {
			return ErrDeleteUsage
		}
	case CmdIncr, CmdDecr:
		if err := keyAndArg(args, r); err != ErrNone {
			return err
		}
		d, ok := ParseUint64(args[1])
		if !ok {
			return ErrDelta
		}
		r.Delta = d
	case CmdTouch:
		if err := keyAndArg(args, r); err != ErrNone {
			return err
		}
		exp, ok := parseInt(args[1])
		if !ok {
			return ErrExptime
		}
		r.Exptime = exp
	case CmdFlushAll:
		if len(args) > 2 {
			return ErrUnknown
		}
		if len(args) > 0 && isNoReply(args[len(args)-1]) {
			r.NoReply, args = true, args[:len(args)-1]
		}
		if len(args) == 1 {
			d, ok := parseInt(args[0])
			if !ok {
				return ErrExptime
			}
			r.HasDelay, r.Exptime = true, d
		}
	case CmdVerbosity:
		if len(args) == 0 || len(args) > 2 {
			return ErrUnknown
		}
		r.NoReply = isNoReply(args[len(args)-1])
		if _, ok := parseInt(args[0]); !ok {
			return ErrFormat
		}
	case CmdStats:
		r.Args = append(r.Args, args...)
	case CmdVersion, CmdQuit:
	}
	return ErrNone
}

// keyAndArg takes the `<key> <arg> [noreply]` of incr, decr and touch
// (the argument is the caller's).
func keyAndArg(args [][]byte, r *Request) Error {
	if len(args) < 2 || len(args) > 3 {
		return ErrUnknown
	}
	r.NoReply = isNoReply(args[len(args)-1])
	if len(args[0]) > KeyMax {
		return ErrFormat
	}
	r.Keys = append(r.Keys, args[0])
	return ErrNone
}

// setKeys takes the keys of a retrieval; a key longer than KeyMax makes
// the whole line a format error.
func (r *Request) setKeys(cmd Cmd, keys [][]byte) Error {
	for _, k := range keys {
		if len(k) > KeyMax {
			r.Keys = r.Keys[:0]
			return ErrFormat
		}
	}
	r.Cmd = cmd
	r.Keys = append(r.Keys, keys...)
	return ErrNone
}

// parseStorage parses set/add/replace/append/prepend <key> <flags>
// <exptime> <bytes> [noreply] and cas <key> <flags> <exptime> <bytes>
// <cas unique> [noreply].
func parseStorage(cmd Cmd, args [][]byte, r *Request) Error {
	n := 4
	if cmd == CmdCas {
		n = 5
	}
	if len(args) != n && len(args) != n+1 {
		return ErrUnknown
	}
	if len(args[0]) > KeyMax {
		return ErrFormat
	}
	r.NoReply = isNoReply(args[len(args)-1])
	flags, ok1 := ParseUint64(args[1])
	exp, ok2 := parseInt(args[2])
	size, ok3 := parseInt(args[3])
	if !ok1 || !ok2 || !ok3 || size < 0 || size > math.MaxInt32-2 {
		return ErrFormat
	}
	if cmd == CmdCas {
		cas, ok := ParseUint64(args[4])
		if !ok {
			return ErrFormat
		}
		r.Cas = cas
	}
	r.Cmd = cmd
	r.Keys = append(r.Keys, args[0])
	r.Flags = uint32(flags) // memcached keeps the low 32 bits
	r.Exptime, r.Bytes = exp, int(size)
	return ErrNone
}

func isNoReply(b []byte) bool { return string(b) == "noreply" }

// ParseUint64 parses a decimal unsigned 64-bit number as memcached's
// safe_strtoull does: leading spaces and a sign allowed; the digits end
// the input or are followed by a space (what follows that is not read);
// a number that reads negative is refused.
func ParseUint64(b []byte) (uint64, bool) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	start := i
	var v uint64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		d := uint64(b[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			return 0, false // out of range
		}
		v = v*10 + d
		i++
	}
	if i == start || (i < len(b) && !isSpace(b[i])) {
		return 0, false
	}
	if neg && v != 0 {
		if int64(-v) < 0 {
			// strtoull negates; memcached refuses what reads negative
			return 0, false
		}
		v = -v
	}
	return v, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parseInt parses a decimal number as memcached's safe_strtol does on a
// 64-bit machine: strtol's long (a word: nothing may follow the digits),
// then kept in an int32, whose wrap memcached keeps too (an exptime of
// 4000000000 is negative there: already expired).
func parseInt(b []byte) (int64, bool) {
	v, err := strconv.ParseInt(string(bytes.TrimLeft(b, " \t\r\n\v\f")), 10, 64)
	return int64(int32(v)), err == nil
}

// AppendValue appends a retrieval's VALUE line and data block; cas is
// written when withCas.
func AppendValue(out, key []byte, flags uint32, data []byte, cas uint64, withCas bool) []byte {
	out = append(out, "VALUE "...)
	out = append(out, key...)
	out = append(out, ' ')
	out = strconv.AppendUint(out, uint64(flags), 10)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(len(data)), 10)
	if withCas {
		out = append(out, ' ')
		out = strconv.AppendUint(out, cas, 10)
	}
	out = append(out, "\r\n"...)
	out = append(out, data...)
	return append(out, "\r\n"...)
}

// Answer lines.
const (
	Stored    = "STORED\r\n"
	NotStored = "NOT_STORED\r\n"
	Exists    = "EXISTS\r\n"
	NotFound  = "NOT_FOUND\r\n"
	Deleted   = "DELETED\r\n"
	Touched   = "TOUCHED\r\n"
	End       = "END\r\n"
	OK        = "OK\r\n"
)

// AppendNumber appends incr/decr's answer.
func AppendNumber(out []byte, v uint64) []byte {
	out = strconv.AppendUint(out, v, 10)
	return append(out, "\r\n"...)
}
