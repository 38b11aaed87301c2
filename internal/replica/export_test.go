package replica

import (
	"context"
	"time"

	"github.com/go-mysql-org/go-mysql/replication"
)

// FeedBinlog applies raw binlog events (each one event as a primary sends
// it: header, body, checksum) to r as a stream from a primary of the
// given flavor would: from r's committed position, positioned by GTID or
// by file and offset as the stream would choose for r's source, decoded
// as the stream decodes them; the last batch is written at the end. It
// lets tests cover event kinds that no server here writes (MySQL's
// GTIDs, a MySQL primary without GTIDs). r must not be running.
func FeedBinlog(ctx context.Context, r *Replica, flavor string, events [][]byte) error {
	pos, err := r.position()
	if err != nil {
		return err
	}
	pos.Flavor = flavor
	r.mu.Lock()
	s := r.sourceOrNew()
	r.mu.Unlock()
	a := newApplier(ctx, r, s, pos, gtidMode(flavor, s, pos))
	defer a.cm.close()
	p := replication.NewBinlogParser()
	p.SetFlavor(flavor)
	p.SetTimestampStringLocation(time.UTC)
	p.SetVerifyChecksum(true)
	for _, raw := range events {
		ev, err := p.Parse(raw)
		if err != nil {
			return err
		}
		if err := a.event(ctx, ev); err != nil {
			return a.applyError(ctx, err)
		}
	}
	if err := a.settle(ctx); err != nil {
		return a.applyError(ctx, err)
	}
	return nil
}

// SetCopySnapshotHook makes fn run right after every initial copy's
// snapshot is taken (nil removes it).
func SetCopySnapshotHook(fn func()) {
	if fn == nil {
		copySnapshotHook.Store(nil)
		return
	}
	copySnapshotHook.Store(&fn)
}
