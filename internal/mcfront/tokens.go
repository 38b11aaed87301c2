package mcfront

import (
	"hash/maphash"
	"sync"
)

// The meta protocol's recache tokens and stale items (mg N and R, ms and
// md I): memcached keeps two bits in an item, "a win token was sent" and
// "stale". Here they are kept in memory beside the rows, for the item as
// it was at one CAS: a change of the row (a new CAS) leaves them behind,
// as a new item in memcached starts without them. They do not survive a
// restart, and a shard forgets its items past tokenShardMax (a forgotten
// item is fresh again: the next mg wins a token anew).
type tokens struct {
	seed   maphash.Seed
	shards [16]tokenShard
}

type tokenShard struct {
	mu sync.Mutex
	m  map[string]tokenState
}

type tokenState struct {
	cas       uint64
	tokenSent bool
	stale     bool
	// fetched and lastAccess are the item's access history, kept once a
	// client has asked for it (mg h or l: Server.tracking).
	fetched    bool
	lastAccess int64
}

const tokenShardMax = 1 << 16

func (t *tokens) shard(key string) *tokenShard {
	return &t.shards[maphash.String(t.seed, key)%uint64(len(t.shards))]
}

// tokenKey names an item: its table and key.
func tokenKey(c *container, key []byte) string {
	return c.def.db + "\x00" + c.def.table + "\x00" + string(key)
}

// set records the state of the item at cas.
func (t *tokens) set(key string, s tokenState) {
	sh := t.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.put(key, s)
}

// put stores s under mu, forgetting the shard's items when it is full.
func (sh *tokenShard) put(key string, s tokenState) {
	if sh.m == nil || len(sh.m) >= tokenShardMax {
		sh.m = map[string]tokenState{}
	}
	sh.m[key] = s
}

// state returns key's state at cas under mu (fresh when none or older).
func (sh *tokenShard) state(key string, cas uint64) tokenState {
	if s, ok := sh.m[key]; ok && s.cas == cas {
		return s
	}
	return tokenState{cas: cas}
}

// access records a fetch of the item at cas at now and returns whether
// it was fetched before and the seconds since its last access (0 when
// not known).
func (t *tokens) access(key string, cas uint64, now int64) (hit bool, idle int64) {
	sh := t.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.state(key, cas)
	hit = s.fetched
	if s.lastAccess != 0 {
		idle = max(now-s.lastAccess, 0)
	}
	s.fetched, s.lastAccess = true, now
	sh.put(key, s)
	return hit, idle
}

// flags returns the W, X and Z flags an mg answer of the item at cas
// carries, winning the token (W) when win (N created it, R found its TTL
// short) or the item is stale, unless a token was sent already (Z): in
// memcached's order, Z, then X, then W.
func (t *tokens) flags(key string, cas uint64, win bool) string {
	sh := t.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.state(key, cas)
	if !s.tokenSent && !s.stale && !win {
		return ""
	}
	out := ""
	if s.tokenSent {
		out += " Z"
	}
	if s.stale {
		out += " X"
		if !s.tokenSent {
			win = true
		}
	}
	if win && !s.tokenSent {
		out += " W"
		s.tokenSent = true
		sh.put(key, s)
	}
	return out
}
