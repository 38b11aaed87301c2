package mariadb

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/go-mysql-server/sql/variables"
)

// Every session, go-mysql-server's own short-lived ones included, starts
// with a copy of the system variables (339) and of the session status
// variables (289). go-mysql-server copies them key by key, and each
// status variable into two allocations of its own: 64 µs a session. Its
// procedure interpreter makes such a session for every statement of a
// routine it runs (and drops it at once), so a stored function of six
// statements spent half its time there. The two registries below wrap
// go-mysql-server's and make the same maps faster: the system variables
// as a clone of a snapshot (the map's memory copied whole), taken again
// after any change to the globals; the status variables from a list of
// their definitions, all values of one session in two allocations.

// installSessionVars wraps go-mysql-server's two registries, once per
// process (NewAnalyzer calls it).
func installSessionVars() {
	if sql.StatusVariables == nil {
		variables.InitStatusVariables()
	}
	if _, done := sql.StatusVariables.(*fastStatusVars); !done {
		sql.StatusVariables = &fastStatusVars{StatusVariableRegistry: sql.StatusVariables}
	}
	if _, done := sql.SystemVariables.(*fastSystemVars); !done && sql.SystemVariables != nil {
		sql.SystemVariables = &fastSystemVars{SystemVariableRegistry: sql.SystemVariables}
	}
}

// fastSystemVars is a system variable registry whose session maps are
// clones of a snapshot of the wrapped registry's. Every change of the
// globals goes through it (it is sql.SystemVariables) and drops the
// snapshot; a snapshot taken while a change runs, or since one began, is
// used once and not kept. The wrapped registry is never called under mu
// (its changes make sessions of their own). Safe for concurrent use.
type fastSystemVars struct {
	sql.SystemVariableRegistry
	mu       sync.Mutex
	snap     map[string]sql.SystemVarValue // nil: take one
	gen      uint64                        // changes begun
	changing int                           // changes running
}

// NewSessionMap implements sql.SystemVariableRegistry.
func (r *fastSystemVars) NewSessionMap() map[string]sql.SystemVarValue {
	r.mu.Lock()
	s, gen := r.snap, r.gen
	r.mu.Unlock()
	if s != nil {
		return maps.Clone(s)
	}
	m := r.SystemVariableRegistry.NewSessionMap()
	r.mu.Lock()
	if r.snap == nil && r.gen == gen && r.changing == 0 {
		r.snap = maps.Clone(m)
	}
	r.mu.Unlock()
	return m
}

// changed runs a change of the globals and drops the snapshot.
func (r *fastSystemVars) changed(f func() error) error {
	r.mu.Lock()
	r.snap = nil
	r.gen++
	r.changing++
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.snap = nil
		r.changing--
		r.mu.Unlock()
	}()
	return f()
}

// AddSystemVariables implements sql.SystemVariableRegistry.
func (r *fastSystemVars) AddSystemVariables(sysVars []sql.SystemVariable) {
	_ = r.changed(func() error { r.SystemVariableRegistry.AddSystemVariables(sysVars); return nil })
}

// AssignValues implements sql.SystemVariableRegistry.
func (r *fastSystemVars) AssignValues(vals map[string]interface{}) error {
	return r.changed(func() error { return r.SystemVariableRegistry.AssignValues(vals) })
}

// SetGlobal implements sql.SystemVariableRegistry.
func (r *fastSystemVars) SetGlobal(ctx *sql.Context, name string, val interface{}) error {
	return r.changed(func() error { return r.SystemVariableRegistry.SetGlobal(ctx, name, val) })
}

// fastStatusVars is a status variable registry whose session maps are
// made from a list of the session variables' definitions, read once
// from the wrapped registry. Safe for concurrent use.
type fastStatusVars struct {
	sql.StatusVariableRegistry
	once  sync.Once
	proto []statusProto
	nMut  int
}

// extraStatusVars are MariaDB's session status variables go-mysql-server
// lacks: the binary log position of the session's consistent snapshot
// (START TRANSACTION WITH CONSISTENT SNAPSHOT sets them; a replica's
// copy and mariadb-dump --single-transaction read them).
var extraStatusVars = []*sql.MySQLStatusVariable{
	{Name: "Binlog_snapshot_file", Scope: sql.StatusVariableScope_Session, Type: gtypes.LongText, Default: ""},
	{Name: "Binlog_snapshot_position", Scope: sql.StatusVariableScope_Session, Type: gtypes.Uint64, Default: uint64(0)},
}

// statusProto is one session status variable: its definition and, for
// a counter, its starting value, else its value.
type statusProto struct {
	name    string
	v       sql.StatusVariable
	mutable bool
	start   uint64
	val     interface{}
}

// NewSessionMap implements sql.StatusVariableRegistry: the values a new
// session starts with, as go-mysql-server's registry gives them.
func (r *fastStatusVars) NewSessionMap() map[string]sql.StatusVarValue {
	r.once.Do(func() {
		for k, v := range r.StatusVariableRegistry.NewSessionMap() {
			p := statusProto{name: k, v: v.Variable()}
			if m, ok := v.(*sql.MutableStatusVarValue); ok {
				p.mutable, p.start = true, m.Val.Load()
				r.nMut++
			} else {
				p.val = v.Value()
			}
			r.proto = append(r.proto, p)
		}
		for _, v := range extraStatusVars {
			if !slices.ContainsFunc(r.proto, func(p statusProto) bool { return p.name == v.Name }) {
				r.proto = append(r.proto, statusProto{name: v.Name, v: v, val: v.Default})
			}
		}
	})
	out := make(map[string]sql.StatusVarValue, len(r.proto))
	muts := make([]sql.MutableStatusVarValue, r.nMut)
	counters := make([]atomic.Uint64, r.nMut)
	imms := make([]sql.ImmutableStatusVarValue, len(r.proto)-r.nMut)
	i, j := 0, 0
	for _, p := range r.proto {
		if p.mutable {
			counters[i].Store(p.start)
			muts[i] = sql.MutableStatusVarValue{Var: p.v, Val: &counters[i]}
			out[p.name] = &muts[i]
			i++
		} else {
			imms[j] = sql.ImmutableStatusVarValue{Var: p.v, Val: p.val}
			out[p.name] = &imms[j]
			j++
		}
	}
	return out
}

// liveStatus holds global status variables whose values a function gives
// when they are read: a server's own counters (semi-sync's), which
// go-mysql-server's registry has no place for. name -> func() interface{}.
var liveStatus sync.Map

// SetLiveStatus makes the global status variable name read fn's value
// (nil removes it). The registry is the process's, as go-mysql-server's
// is: the server started last sets them. Safe for concurrent use.
func SetLiveStatus(name string, fn func() interface{}) {
	if fn == nil {
		liveStatus.Delete(name)
		return
	}
	liveStatus.Store(name, fn)
}

// liveVar is a live status variable's definition.
func liveVar(name string, v interface{}) *sql.MySQLStatusVariable {
	var t sql.Type = gtypes.LongText
	if _, ok := v.(uint64); ok {
		t = gtypes.Uint64
	}
	return &sql.MySQLStatusVariable{Name: name, Scope: sql.StatusVariableScope_Global, Type: t, Default: v}
}

// NewGlobalMap implements sql.StatusVariableRegistry: the wrapped
// registry's values and the live ones.
func (r *fastStatusVars) NewGlobalMap() map[string]sql.StatusVarValue {
	m := r.StatusVariableRegistry.NewGlobalMap()
	liveStatus.Range(func(k, fn any) bool {
		name := k.(string)
		v := fn.(func() interface{})()
		m[name] = &sql.ImmutableStatusVarValue{Var: liveVar(name, v), Val: v}
		return true
	})
	return m
}

// GetGlobal implements sql.StatusVariableRegistry, live values included.
func (r *fastStatusVars) GetGlobal(name string) (sql.StatusVariable, interface{}, bool) {
	if fn, ok := liveStatus.Load(name); ok {
		v := fn.(func() interface{})()
		return liveVar(name, v), v, true
	}
	return r.StatusVariableRegistry.GetGlobal(name)
}
