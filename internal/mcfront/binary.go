package mcfront

import (
	"bytes"
	"encoding/binary"
	"os"
	"strconv"
	"time"

	"github.com/handlerdb/handlerdb/internal/mcproto"
)

// The binary protocol over the same commands: each request is mapped to
// its text command (set with a CAS is cas, the quiet forms answer only
// failures, GetQ and GetKQ not even misses) and answered in binary.

// binText maps the binary opcodes that change rows to text commands.
var binText = map[byte]mcproto.Cmd{
	mcproto.BinSet: mcproto.CmdSet, mcproto.BinSetQ: mcproto.CmdSet,
	mcproto.BinAdd: mcproto.CmdAdd, mcproto.BinAddQ: mcproto.CmdAdd,
	mcproto.BinReplace: mcproto.CmdReplace, mcproto.BinReplaceQ: mcproto.CmdReplace,
	mcproto.BinAppend: mcproto.CmdAppend, mcproto.BinAppendQ: mcproto.CmdAppend,
	mcproto.BinPrepend: mcproto.CmdPrepend, mcproto.BinPrependQ: mcproto.CmdPrepend,
	mcproto.BinDelete: mcproto.CmdDelete, mcproto.BinDeleteQ: mcproto.CmdDelete,
	mcproto.BinIncrement: mcproto.CmdIncr, mcproto.BinIncrQ: mcproto.CmdIncr,
	mcproto.BinDecrement: mcproto.CmdDecr, mcproto.BinDecrQ: mcproto.CmdDecr,
	mcproto.BinTouch: mcproto.CmdTouch,
	mcproto.BinGAT:   mcproto.CmdGat, mcproto.BinGATQ: mcproto.CmdGat,
	mcproto.BinGATK: mcproto.CmdGat, mcproto.BinGATKQ: mcproto.CmdGat,
	mcproto.BinFlush: mcproto.CmdFlushAll, mcproto.BinFlushQ: mcproto.CmdFlushAll,
}

func binQuiet(op byte) bool {
	switch op {
	case mcproto.BinGetQ, mcproto.BinGetKQ, mcproto.BinSetQ, mcproto.BinAddQ, mcproto.BinReplaceQ,
		mcproto.BinDeleteQ, mcproto.BinIncrQ, mcproto.BinDecrQ, mcproto.BinQuitQ, mcproto.BinFlushQ,
		mcproto.BinAppendQ, mcproto.BinPrependQ, mcproto.BinGATQ, mcproto.BinGATKQ:
		return true
	}
	return false
}

// binStep is Step for a binary connection.
func (ss *session) binStep() bool {
	for !ss.closed {
		if ss.swallowing() || (len(*ss.out) >= turnOutput && ss.nrun == 0) {
			return true
		}
		in := ss.in[ss.consumed+ss.pending:]
		if body := mcproto.BinaryBodyLen(in); len(in) >= mcproto.BinaryHeader && in[0] == mcproto.BinaryMagic && body > ss.s.cfg.MaxItemSize+1024 {
			if ss.nrun > 0 {
				return false
			}
			// too large to hold: answered and read past, as memcached
			*ss.out = mcproto.AppendBinaryError(*ss.out, in[1], mcproto.BinTooLarge, binary.BigEndian.Uint32(in[12:16]))
			ss.consumed += mcproto.BinaryHeader
			ss.swallow = body
			continue
		}
		n, ok, bad := mcproto.NextBinary(in, &ss.breq)
		if !ok {
			break
		}
		if bad {
			if ss.nrun > 0 {
				return false
			}
			ss.closed = true // memcached drops a connection that sends no request
			break
		}
		r := &ss.breq
		if ss.s.cfg.Authorize != nil && (r.Opcode == mcproto.BinSASLList || r.Opcode == mcproto.BinSASLAuth || r.Opcode == mcproto.BinSASLStep || !ss.authed) {
			if ss.nrun > 0 {
				return false
			}
			ss.consumed += n
			ss.binLogin(r)
			continue
		}
		if cmd, isWrite := binText[r.Opcode]; isWrite && (cmd != mcproto.CmdFlushAll || ss.s.cfg.FlushEnabled) {
			if ss.nrun == 0 {
				if _, err := ss.s.conf.get(true); err != nil {
					ss.consumed += n
					*ss.out = mcproto.AppendBinaryError(*ss.out, r.Opcode, mcproto.BinNoMemory, r.Opaque)
					continue
				}
			}
			if ss.nrun > 0 && !ss.binValid(cmd) {
				return false // the run is answered before the refusal
			}
			if ss.prepareBin(cmd, n) {
				if ss.nrun == maxRun {
					return false
				}
				continue
			}
			continue
		}
		if ss.nrun > 0 {
			return false
		}
		ss.consumed += n
		ss.binRead(r)
	}
	return ss.nrun == 0
}

// binValid reports whether the binary write in breq has the key, extras
// and size its command needs (prepareBin answers it at once if not).
func (ss *session) binValid(cmd mcproto.Cmd) bool {
	r := &ss.breq
	if cmd != mcproto.CmdFlushAll && (len(r.Key) == 0 || len(r.Key) > mcproto.KeyMax) {
		return false
	}
	if cmd.IsStorage() && len(r.Value)+len(r.Key)+59 > ss.s.cfg.MaxItemSize {
		return false
	}
	switch {
	case cmd == mcproto.CmdSet || cmd == mcproto.CmdAdd || cmd == mcproto.CmdReplace:
		return len(r.Extras) == 8
	case cmd == mcproto.CmdIncr || cmd == mcproto.CmdDecr:
		return len(r.Extras) == 20
	case cmd == mcproto.CmdTouch || cmd == mcproto.CmdGat:
		return len(r.Extras) == 4
	}
	return true
}

// prepareBin adds a binary write to the run; false when the request is
// answered at once (bad arguments).
func (ss *session) prepareBin(cmd mcproto.Cmd, n int) bool {
	r := &ss.breq
	ext := r.Extras
	bad := func() bool {
		// memcached answers a malformed request and closes the connection
		ss.consumed += n
		*ss.out = mcproto.AppendBinaryError(*ss.out, r.Opcode, mcproto.BinInvalid, r.Opaque)
		ss.closed = true
		return false
	}
	if cmd != mcproto.CmdFlushAll && (len(r.Key) == 0 || len(r.Key) > mcproto.KeyMax) {
		return bad()
	}
	if cmd.IsStorage() && len(r.Value)+len(r.Key)+59 > ss.s.cfg.MaxItemSize {
		ss.consumed += n
		*ss.out = mcproto.AppendBinaryError(*ss.out, r.Opcode, mcproto.BinTooLarge, r.Opaque)
		return false
	}
	o := ss.nextOp()
	o.bin, o.opcode, o.opaque, o.quiet = true, r.Opcode, r.Opaque, binQuiet(r.Opcode)
	o.withKey = r.Opcode == mcproto.BinGATK || r.Opcode == mcproto.BinGATKQ
	o.cmd, o.cont, o.data, o.noreply = cmd, ss.container, r.Value, false
	o.keys = append(o.keys, r.Key)
	o.cas, o.flags, o.exp = r.Cas, 0, 0
	now := time.Now().Unix()
	switch {
	case cmd == mcproto.CmdSet || cmd == mcproto.CmdAdd || cmd == mcproto.CmdReplace:
		if len(ext) != 8 {
			ss.nrun--
			return bad()
		}
		o.flags = binary.BigEndian.Uint32(ext[:4])
		o.exp = expireAt(int64(binary.BigEndian.Uint32(ext[4:8])), now)
		if cmd == mcproto.CmdSet && r.Cas != 0 {
			o.cmd = mcproto.CmdCas
		}
	case cmd == mcproto.CmdIncr || cmd == mcproto.CmdDecr:
		if len(ext) != 20 {
			ss.nrun--
			return bad()
		}
		o.delta = binary.BigEndian.Uint64(ext[:8])
		o.initial = binary.BigEndian.Uint64(ext[8:16])
		o.binExp = binary.BigEndian.Uint32(ext[16:20])
	case cmd == mcproto.CmdTouch || cmd == mcproto.CmdGat:
		if len(ext) != 4 {
			ss.nrun--
			return bad()
		}
		o.exp = expireAt(int64(binary.BigEndian.Uint32(ext)), now)
	case cmd == mcproto.CmdFlushAll:
		if len(ext) == 4 {
			if d := int64(binary.BigEndian.Uint32(ext)); d > 0 {
				o.exp = expireAt(d, now)
			}
		}
	}
	ss.pending += n
	return true
}

// binRead answers a binary request that needs no writer.
func (ss *session) binRead(r *mcproto.BinRequest) {
	out := *ss.out
	st := &ss.s.stats
	quiet := binQuiet(r.Opcode)
	switch r.Opcode {
	case mcproto.BinGet, mcproto.BinGetQ, mcproto.BinGetK, mcproto.BinGetKQ:
		withKey := r.Opcode == mcproto.BinGetK || r.Opcode == mcproto.BinGetKQ
		it, ok := ss.lookup(r.Key)
		if !ok {
			st.GetMisses.Add(1)
			st.Cmds[mcproto.CmdGet][1].Add(1)
			if !quiet {
				if withKey {
					// GetK's miss carries the key, no text
					out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinNotFound, r.Opaque, 0, nil, r.Key, nil)
				} else {
					out = mcproto.AppendBinaryError(out, r.Opcode, mcproto.BinNotFound, r.Opaque)
				}
			}
			break
		}
		st.GetHits.Add(1)
		st.Cmds[mcproto.CmdGet][0].Add(1)
		var key []byte
		if withKey {
			key = r.Key
		}
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, it.cas, binary.BigEndian.AppendUint32(nil, it.flags), key, it.value)
	case mcproto.BinNoop:
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, nil)
	case mcproto.BinVersion:
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, []byte(Version))
	case mcproto.BinVerbosity:
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, nil)
	case mcproto.BinQuit, mcproto.BinQuitQ:
		if !quiet {
			out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, nil)
		}
		ss.closed = true
	case mcproto.BinStat:
		s := ss.s
		for _, kv := range [][2]string{
			{"pid", strconv.Itoa(os.Getpid())},
			{"uptime", strconv.FormatInt(int64(time.Since(s.started)/time.Second), 10)},
			{"time", strconv.FormatInt(time.Now().Unix(), 10)},
			{"version", Version},
			{"curr_connections", strconv.FormatInt(st.Open.Load(), 10)},
			{"total_connections", strconv.FormatInt(st.Accepted.Load(), 10)},
			{"get_hits", strconv.FormatInt(st.GetHits.Load(), 10)},
			{"get_misses", strconv.FormatInt(st.GetMisses.Load(), 10)},
		} {
			out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, []byte(kv[0]), []byte(kv[1]))
		}
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, nil)
	default:
		// flush while off, SASL (no mechanisms: memcached without -S
		// knows no such command), unknown opcodes
		out = mcproto.AppendBinaryError(out, r.Opcode, mcproto.BinUnknown, r.Opaque)
	}
	*ss.out = out
}

// lookup reads key (in its container) on committed data: the live item.
func (ss *session) lookup(key []byte) (item, bool) {
	_, _, it, found := ss.fetch(key)
	return it, found && live(it.exp, time.Now().Unix())
}

// binAnswer appends the binary answer of op o.
func (ss *session) binAnswer(out []byte, o *op) []byte {
	status := uint16(mcproto.BinOK)
	switch o.res {
	case resNotStored:
		switch o.cmd {
		case mcproto.CmdAdd:
			status = mcproto.BinExists
		case mcproto.CmdReplace:
			status = mcproto.BinNotFound
		default:
			status = mcproto.BinNotStored
		}
	case resExists:
		status = mcproto.BinExists
	case resNotFound:
		status = mcproto.BinNotFound
	case resError:
		switch o.err {
		case mcproto.ErrNonNumeric:
			status = mcproto.BinNonNumeric
		case mcproto.ErrDenied:
			status = mcproto.BinAuthError
		default:
			status = mcproto.BinNoMemory
		}
	}
	if o.cmd == mcproto.CmdGat && o.res == resValues {
		if len(o.vals) == 0 {
			status = mcproto.BinNotFound
		} else {
			it := &o.vals[0]
			var key []byte
			if o.withKey {
				key = it.key
			}
			return mcproto.AppendBinary(out, o.opcode, mcproto.BinOK, o.opaque, it.cas, binary.BigEndian.AppendUint32(nil, it.flags), key, it.value)
		}
	}
	if status != mcproto.BinOK {
		if o.quiet && o.cmd == mcproto.CmdGat && status == mcproto.BinNotFound {
			return out // GATQ: no answer for a miss
		}
		return mcproto.AppendBinaryError(out, o.opcode, status, o.opaque)
	}
	if o.quiet {
		return out
	}
	switch o.res {
	case resNumber:
		return mcproto.AppendBinary(out, o.opcode, mcproto.BinOK, o.opaque, o.newCas, nil, nil, binary.BigEndian.AppendUint64(nil, o.num))
	case resTouched:
		// touch answers the item's flags and CAS, as a get without value
		return mcproto.AppendBinary(out, o.opcode, mcproto.BinOK, o.opaque, o.newCas, binary.BigEndian.AppendUint32(nil, o.flags), nil, nil)
	case resFlushed, resDeleted:
		return mcproto.AppendBinary(out, o.opcode, mcproto.BinOK, o.opaque, 0, nil, nil, nil)
	}
	return mcproto.AppendBinary(out, o.opcode, mcproto.BinOK, o.opaque, o.newCas, nil, nil, nil)
}

// binLogin answers SASL (PLAIN only: "\x00user\x00password", the
// authorization identity ignored) on a connection that must log in; any
// other request before it is refused with an authentication error.
func (ss *session) binLogin(r *mcproto.BinRequest) {
	out := *ss.out
	switch r.Opcode {
	case mcproto.BinSASLList:
		out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, []byte("PLAIN"))
	case mcproto.BinSASLAuth, mcproto.BinSASLStep:
		parts := bytes.SplitN(r.Value, []byte{0}, 3)
		if string(r.Key) == "PLAIN" && len(parts) == 3 && ss.login(parts[1], parts[2]) {
			out = mcproto.AppendBinary(out, r.Opcode, mcproto.BinOK, r.Opaque, 0, nil, nil, []byte("Authenticated"))
		} else {
			out = mcproto.AppendBinaryError(out, r.Opcode, mcproto.BinAuthError, r.Opaque)
		}
	default:
		out = mcproto.AppendBinaryError(out, r.Opcode, mcproto.BinAuthError, r.Opaque)
	}
	*ss.out = out
}
