package mcfront

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The sweep removes expired items that no request meets (a request that
// meets one treats it as gone, and a write replaces or removes it). Every
// SweepEvery it walks each container's table that has an expiry column
// from where the last sweep stopped, at most sweepRows rows, and deletes
// the expired ones in writer jobs of at most sweepBatch, each row checked
// again inside the job (a request may have stored it anew meanwhile).

const (
	sweepRows  = 100000
	sweepBatch = 1000
)

// sweeper is the sweep's state, touched only by its goroutine.
type sweeper struct {
	s     *Server
	w     writeBuf
	after map[string][]byte // per container: the last key examined
}

func (s *Server) sweepLoop(every time.Duration) {
	defer close(s.sweepDone)
	sw := &sweeper{s: s, after: map[string][]byte{}}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.jobCtx.Done():
			return
		case <-t.C:
			sw.sweep()
		}
	}
}

// sweep runs one pass over every container; it returns how many items
// it removed.
func (sw *sweeper) sweep() int {
	conf, err := sw.s.conf.read()
	if err != nil {
		return 0 // no configuration (yet): nothing stored
	}
	removed := 0
	for name, d := range conf.defs {
		c, err := resolve(d, sw.s.e.Catalog(), conf.separator)
		if err != nil || c.exp < 0 {
			continue
		}
		removed += sw.sweepContainer(name, c)
	}
	return removed
}

func (sw *sweeper) sweepContainer(name string, c *container) int {
	now := time.Now().Unix()
	q := &engine.Query{Index: c.idx, Limit: sweepRows}
	if after := sw.after[name]; after != nil {
		q.Op, q.Key = engine.OpGT, []types.Value{{B: after}}
	}
	var expired []types.Value
	var last []byte
	n := 0
	sw.s.e.Find(c.t, q, func(r engine.Row) bool {
		n++
		last = append(last[:0], r[c.key].B...)
		if e := r[c.exp]; !e.Null && e.I != 0 && e.I <= now {
			v := r[c.key]
			v.B = bytes.Clone(v.B)
			expired = append(expired, v)
		}
		return true
	})
	if n < sweepRows {
		delete(sw.after, name) // the end of the table: from the start next time
	} else {
		sw.after[name] = bytes.Clone(last)
	}
	removed := 0
	for len(expired) > 0 {
		batch := expired[:min(sweepBatch, len(expired))]
		expired = expired[len(batch):]
		err := sw.s.e.Update(sw.s.jobCtx, func(tx *engine.Job) error {
			for _, kv := range batch {
				var exp types.Value
				found := false
				tx.Find(c.t, sw.w.query(c, kv), func(r engine.Row) bool {
					exp, found = r[c.exp], true
					return false
				})
				if !found || exp.Null || exp.I == 0 || exp.I > now {
					continue // stored anew meanwhile
				}
				if _, err := sw.w.delete(tx, c, kv); err != nil {
					return err
				}
				removed++
			}
			return nil
		})
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				sw.s.cfg.Logger.Error("memcached expiry sweep", "container", name, "err", err)
			}
			return removed
		}
	}
	sw.s.stats.Reclaimed.Add(int64(removed))
	return removed
}
