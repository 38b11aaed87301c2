package engine

import (
	"context"
	"errors"

	"github.com/cockroachdb/pebble/v2"
)

// What a replica of a MySQL or MariaDB primary (internal/replica) needs of
// the engine: one record of its position in the primary's binary log,
// written by the same job (so the same batch) as the rows of the
// transaction it names, and a read-only state that refuses every change
// but the replica's own.

var replicaKey = []byte{sysPrefix, sysReplica}

// SetReplicaPosition stores the replica's position (its own encoding; the
// engine does not read it) as part of the job: it commits, or rolls back,
// with the job's other writes. Like every write, it is refused while the
// engine is read-only unless the job's context is Privileged.
func (tx *Job) SetReplicaPosition(pos []byte) error {
	return tx.set(replicaKey, pos)
}

// ReplicaPosition returns the committed replica position, or nil when
// none was ever stored. Safe for concurrent use.
func (e *Engine) ReplicaPosition() ([]byte, error) {
	v, closer, err := e.db.Get(replicaKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer closer.Close()
	return append([]byte(nil), v...), nil
}

// SetReadOnly turns the read-only state on or off. While it is on, every
// write of a job whose context is not Privileged fails with ErrReadOnly:
// HandlerSocket writes, SQL commits and DDL, user changes. Reads are
// unaffected. Safe for concurrent use; a job already running keeps the
// state it started with.
func (e *Engine) SetReadOnly(on bool) { e.readOnly.Store(on) }

// ReadOnly reports the read-only state.
func (e *Engine) ReadOnly() bool { return e.readOnly.Load() }

type privilegedKey struct{}

// Privileged returns a context whose Update jobs may write while the
// engine is read-only (the replica's applier, the engine's own deferred
// work). A sql.Context built over it carries the mark too.
func Privileged(ctx context.Context) context.Context {
	return context.WithValue(ctx, privilegedKey{}, true)
}

// mayWrite reports whether a job submitted with ctx may write now.
func (e *Engine) mayWrite(ctx context.Context) bool {
	return !e.readOnly.Load() || ctx.Value(privilegedKey{}) != nil
}
