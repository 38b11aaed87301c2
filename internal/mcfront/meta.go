package mcfront

import (
	"strconv"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mcproto"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The meta protocol's commands over the containers: mg reads on the
// connection's side (with T it touches: a writer job), ms, md and ma are
// writer jobs like the text protocol's storage commands.

// fetch reads key (in its container, "@@name.key" naming another) on
// committed data: the container (nil when there is none, or the account
// may not read it), the key within it, and the row's item when found
// (expired or not: the caller decides).
func (ss *session) fetch(key []byte) (c *container, k []byte, it item, found bool) {
	name, k, switchTo := splitContainer(key)
	if name == "" {
		name = ss.container
	}
	c, err := ss.resolve(name, ss.s.e.Catalog(), false)
	if err != nil || switchTo || !ss.allowed(c, false) {
		return nil, k, it, false
	}
	it, found = ss.readKey(c, k)
	return c, k, it, found
}

// appendMetaAnswer appends a meta answer, or nothing where q (noreply
// semantics) drops it: mg's EN, ms's and md's HD, ma's HD and VA.
func appendMetaAnswer(out []byte, cmd mcproto.Cmd, code string, f *mcproto.MetaFlags, it *mcproto.MetaItem) []byte {
	if f.Flag('q') {
		switch {
		case cmd == mcproto.CmdMg && code == "EN",
			(cmd == mcproto.CmdMs || cmd == mcproto.CmdMd) && code == "HD",
			cmd == mcproto.CmdMa && (code == "HD" || code == "VA"):
			return out
		}
	}
	if code == "VA" || code == "HD" || (cmd == mcproto.CmdMs && f.Flag('c')) {
		return mcproto.AppendMeta(out, code, f, it)
	}
	return mcproto.AppendMeta(out, code, f, nil)
}

// ttlLeft is what t answers: seconds left, -1 for none.
func ttlLeft(exp, now int64) int64 {
	if exp == 0 {
		return -1
	}
	return max(exp-now, 0)
}

// metaGet answers mg without T, on committed data.
func (ss *session) metaGet(out []byte) []byte {
	r := &ss.req
	f := &r.Meta
	st := &ss.s.stats
	now := time.Now().Unix()
	c, k, it, found := ss.fetch(r.Keys[0])
	if c == nil || !found || !live(it.exp, now) {
		st.GetMisses.Add(1)
		if found {
			st.GetExpired.Add(1)
		}
		return appendMetaAnswer(out, r.Cmd, "EN", f, nil)
	}
	st.GetHits.Add(1)
	mi := mcproto.MetaItem{Value: it.value, Flags: it.flags, Cas: it.cas, TTL: ttlLeft(it.exp, now)}
	win := f.Flag('R') && mi.TTL >= 0 && mi.TTL < f.RecacheWithin
	tk := tokenKey(c, k)
	mi.Tokens = ss.s.tokens.flags(tk, it.cas, win)
	if f.Flag('h') || f.Flag('l') {
		ss.s.tracking.Store(true)
	}
	if ss.s.tracking.Load() {
		mi.Hit, mi.Idle = ss.s.tokens.access(tk, it.cas, now)
	}
	code := "HD"
	if f.Flag('v') {
		code = "VA"
	}
	return appendMetaAnswer(out, r.Cmd, code, f, &mi)
}

// metaDebug answers me with what the row holds: its expiry, CAS and
// size (memcached's last access, fetch state and slab class are not
// kept: la=0, fetch=no, cls=1).
func (ss *session) metaDebug(out []byte) []byte {
	r := &ss.req
	now := time.Now().Unix()
	_, k, it, found := ss.fetch(r.Keys[0])
	if !found || !live(it.exp, now) {
		return append(out, "EN\r\n"...)
	}
	out = append(out, "ME "...)
	out = append(out, r.Meta.RawKey...)
	out = append(out, " exp="...)
	out = strconv.AppendInt(out, ttlLeft(it.exp, now), 10)
	out = append(out, " la=0 cas="...)
	out = strconv.AppendUint(out, it.cas, 10)
	out = append(out, " fetch=no cls=1 size="...)
	out = strconv.AppendInt(out, int64(len(k)+len(it.value)+59), 10)
	return append(out, "\r\n"...)
}

// applyMeta runs a meta request of the run on the writer.
func (ss *session) applyMeta(tx *engine.Job, o *op, c *container, key []byte, now int64) {
	f := &o.meta
	st := &ss.s.stats
	it, found, kv, ok := ss.w.read(tx, c, key, o)
	exists := ok && found && live(it.exp, now)
	sp := tx.Savepoint()
	fail := func() {
		tx.RollbackTo(sp)
		o.res, o.err = resError, mcproto.ErrStorage
	}
	item := func(code string, v []byte, flags uint32, cas uint64, exp int64) {
		o.mcode = code
		o.mitem = mcproto.MetaItem{Value: v, Flags: flags, Cas: cas, TTL: ttlLeft(exp, now)}
	}
	if !ok {
		o.mcode = map[mcproto.Cmd]string{mcproto.CmdMg: "EN", mcproto.CmdMs: "NS", mcproto.CmdMd: "NF", mcproto.CmdMa: "NF"}[o.cmd]
		return
	}
	switch o.cmd {
	case mcproto.CmdMg: // with T (a touch) or N (an item made on a miss)
		code := "HD"
		if f.Flag('v') {
			code = "VA"
		}
		if !exists {
			st.GetMisses.Add(1)
			if !f.Flag('N') {
				o.mcode = "EN"
				return
			}
			// N: an empty item with that TTL; this client wins the
			// token to fill it
			exp := expireAt(f.NewTTL, now)
			cas := ss.s.nextCas()
			if err := ss.w.store(tx, c, kv, found, nil, 0, cas, exp); err != nil {
				fail()
				return
			}
			item(code, nil, 0, cas, exp)
			o.mitem.Tokens = ss.s.tokens.flags(tokenKey(c, key), cas, true)
			return
		}
		exp := it.exp
		if f.Flag('T') {
			exp = expireAt(f.TTL, now)
			if c.exp >= 0 {
				if _, err := ss.w.modify(tx, c, kv, []int{c.exp}, []types.Value{{I: exp}}); err != nil {
					fail()
					return
				}
			}
			st.TouchHits.Add(1)
		}
		st.GetHits.Add(1)
		item(code, it.value, it.flags, it.cas, exp)
		win := f.Flag('R') && o.mitem.TTL >= 0 && o.mitem.TTL < f.RecacheWithin
		o.mitem.Tokens = ss.s.tokens.flags(tokenKey(c, key), it.cas, win)
	case mcproto.CmdMs:
		exp := int64(0)
		if f.Flag('T') {
			exp = expireAt(f.TTL, now)
		}
		flags := f.ClientFlags
		value := o.data
		stale := false
		switch {
		case f.Flag('C') && !exists:
			o.mcode = "NF"
			return
		case f.Flag('I') && f.Flag('C') && f.CompareCas < it.cas:
			// I: a CAS older than the item's stores it, marked stale
			stale = true
		case f.Flag('C') && it.cas != f.CompareCas:
			st.CasBadval.Add(1)
			o.mcode = "EX"
			return
		}
		switch f.Mode {
		case 'E', 'e':
			if exists {
				o.mcode = "NS"
				return
			}
		case 'R', 'r':
			if !exists {
				o.mcode = "NS"
				return
			}
		case 'A', 'a', 'P', 'p':
			if !exists {
				o.mcode = "NS"
				return
			}
			v := make([]byte, 0, len(it.value)+len(value))
			if f.Mode == 'A' || f.Mode == 'a' {
				v = append(append(v, it.value...), value...)
			} else {
				v = append(append(v, value...), it.value...)
			}
			value, flags, exp = v, it.flags, it.exp
		}
		cas := ss.s.nextCas()
		if err := ss.w.store(tx, c, kv, found, value, flags, cas, exp); err != nil {
			fail()
			return
		}
		if stale {
			ss.s.tokens.set(tokenKey(c, key), tokenState{cas: cas, stale: true})
		}
		st.TotalItems.Add(1)
		o.mcode = "HD"
		o.mitem = mcproto.MetaItem{Cas: cas}
	case mcproto.CmdMd:
		switch {
		case !exists:
			st.DeleteMisses.Add(1)
			o.mcode = "NF"
		case f.Flag('C') && it.cas != f.CompareCas:
			o.mcode = "EX"
		case f.Flag('I'):
			// invalidate: the item stays, stale, under a new CAS (and
			// the TTL T gives)
			cas := ss.s.nextCas()
			cols, vals := []int{}, []types.Value{}
			if c.cas >= 0 {
				cols, vals = append(cols, c.cas), append(vals, types.Value{I: int64(cas)})
			}
			if f.Flag('T') && c.exp >= 0 {
				cols, vals = append(cols, c.exp), append(vals, types.Value{I: expireAt(f.TTL, now)})
			}
			if len(cols) > 0 {
				if _, err := ss.w.modify(tx, c, kv, cols, vals); err != nil {
					fail()
					return
				}
			}
			if c.cas < 0 {
				cas = it.cas
			}
			ss.s.tokens.set(tokenKey(c, key), tokenState{cas: cas, stale: true})
			o.mcode = "HD"
		default:
			if _, err := ss.w.delete(tx, c, kv); err != nil {
				fail()
				return
			}
			st.DeleteHits.Add(1)
			o.mcode = "HD"
		}
	case mcproto.CmdMa:
		incr := f.Mode == 0 || f.Mode == 'I' || f.Mode == 'i' || f.Mode == '+'
		if !exists {
			if !f.Flag('N') {
				o.mcode = "NF"
				return
			}
			// autovivify: the initial value, not incremented
			v := strconv.AppendUint(nil, f.Initial, 10)
			exp := expireAt(f.NewTTL, now)
			cas := ss.s.nextCas()
			if err := ss.w.store(tx, c, kv, found, v, 0, cas, exp); err != nil {
				fail()
				return
			}
			o.mcode = "HD"
			if f.Flag('v') {
				o.mcode = "VA"
			}
			item(o.mcode, v, 0, cas, exp)
			return
		}
		if f.Flag('C') && it.cas != f.CompareCas {
			o.mcode = "EX"
			return
		}
		n, v, numeric := arith(it.value, f.Delta, incr)
		if !numeric {
			o.res, o.err = resError, mcproto.ErrNonNumeric
			return
		}
		exp := it.exp
		if f.Flag('T') {
			exp = expireAt(f.TTL, now)
		}
		cas := ss.s.nextCas()
		if err := ss.w.store(tx, c, kv, true, v, it.flags, cas, exp); err != nil {
			fail()
			return
		}
		code := "HD"
		if f.Flag('v') {
			code = "VA"
		}
		// (the value answered is the number, as memcached's ma answers it)
		item(code, strconv.AppendUint(nil, n, 10), it.flags, cas, exp)
	}
}
