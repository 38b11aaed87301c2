package engine

import (
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// Durability says when a committed group of writes reaches stable storage.
type Durability uint8

const (
	// DurabilitySync fsyncs the write-ahead log once per group commit,
	// before any write of the group is acknowledged: an acknowledged write
	// survives a crash of the process or of the machine.
	DurabilitySync Durability = iota
	// DurabilityOS writes each group to the operating system before it is
	// acknowledged and fsyncs the log once a second: a process crash loses
	// nothing, a machine crash loses up to about a second of writes (like
	// innodb_flush_log_at_trx_commit=2).
	DurabilityOS
	// DurabilityNone writes each group to the operating system and never
	// forces it to disk: a process crash loses nothing, a machine crash
	// loses whatever the OS had not written back.
	DurabilityNone
)

// ParseDurability parses "sync", "os" or "none".
func ParseDurability(s string) (Durability, error) {
	switch s {
	case "sync":
		return DurabilitySync, nil
	case "os":
		return DurabilityOS, nil
	case "none":
		return DurabilityNone, nil
	}
	return 0, fmt.Errorf("engine: durability %q is not sync, os or none", s)
}

// UnmarshalText parses "sync", "os" or "none" (for flags and files).
func (d *Durability) UnmarshalText(b []byte) error {
	v, err := ParseDurability(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalText is the mode's name.
func (d Durability) MarshalText() ([]byte, error) {
	if d > DurabilityNone {
		return nil, fmt.Errorf("engine: unknown durability %d", d)
	}
	return []byte(d.String()), nil
}

func (d Durability) String() string {
	switch d {
	case DurabilitySync:
		return "sync"
	case DurabilityOS:
		return "os"
	case DurabilityNone:
		return "none"
	}
	return fmt.Sprintf("Durability(%d)", uint8(d))
}

// Options configure an Engine. The zero value of every field means its
// default; a negative value is invalid unless the field says what it
// means. Open calls EnsureDefaults and then Validate.
type Options struct {
	// Dir is the data directory. Required.
	Dir string
	// Durability of acknowledged writes. Default DurabilitySync.
	Durability Durability
	// CacheSize is Pebble's block cache size in bytes. Default 256 MiB.
	CacheSize int64
	// MemTableSize is the size of Pebble's memtables. Default 8 MiB:
	// updates insert into a smaller skiplist, whose search misses the
	// CPU's caches less, at the price of more flushes. Server CPU per
	// HandlerSocket update of 100,000 rows (hsbench, 16 x 16), medians
	// of 3 alternating runs: 4.87 us at 8 MiB, 5.82 at 16; inserts 3.04
	// and 3.22 us; 4 MiB makes updates cheaper still (about 4.1) and
	// inserts dearer (3.5: the flushes and compactions of new rows).
	MemTableSize int64
	// RowCacheSize bounds the row cache, which answers primary-key and
	// unique-index point lookups without reading Pebble (see rowcache.go).
	// Default 64 MiB; negative turns it off.
	RowCacheSize int64
	// DefaultCollation is the collation of string columns that name none.
	// Default utf8mb4_general_ci.
	DefaultCollation *collation.Collation
	// SyncInterval is how often DurabilityOS fsyncs the log. Default 1 s.
	SyncInterval time.Duration
	// MaxGroupJobs bounds how many jobs one group commit takes. Default 1024.
	MaxGroupJobs int
	// PipelineSync (DurabilitySync only) lets the writer apply the next
	// group while the last one waits for its fsync; a syncer goroutine
	// answers each group once durable. Off by default: on the one disk
	// measured (fdatasync 170-440 µs), HandlerSocket inserts of 16 and 64
	// connections were no faster and cost more CPU per insert (Pebble then
	// syncs smaller groups more often), see docs/BENCHMARKS.md.
	PipelineSync bool
	// FS is the file system the store (and its staging stores) live on.
	// Default vfs.Default, the operating system's. Tests give a
	// crashable in-memory one (vfs.NewCrashableMem) to drop what was not
	// synced, as a power loss does (powerloss_test.go). It must be safe
	// for concurrent use.
	FS vfs.FS
}

// EnsureDefaults fills every zero field with its default.
func (o *Options) EnsureDefaults() {
	if o.CacheSize == 0 {
		o.CacheSize = 256 << 20
	}
	if o.MemTableSize == 0 {
		o.MemTableSize = 8 << 20
	}
	if o.RowCacheSize == 0 {
		o.RowCacheSize = 64 << 20
	}
	if o.DefaultCollation == nil {
		o.DefaultCollation = collation.Default
	}
	if o.SyncInterval == 0 {
		o.SyncInterval = time.Second
	}
	if o.MaxGroupJobs == 0 {
		o.MaxGroupJobs = 1024
	}
	if o.FS == nil {
		o.FS = vfs.Default
	}
}

// Validate reports the first invalid setting.
func (o *Options) Validate() error {
	switch {
	case o.Dir == "":
		return fmt.Errorf("engine: Options.Dir is required")
	case o.Durability > DurabilityNone:
		return fmt.Errorf("engine: unknown durability %d", o.Durability)
	case o.MemTableSize < 0:
		return fmt.Errorf("engine: negative MemTableSize")
	case o.CacheSize < 0:
		return fmt.Errorf("engine: negative CacheSize")
	case o.SyncInterval < 0:
		return fmt.Errorf("engine: negative SyncInterval")
	case o.MaxGroupJobs < 0:
		return fmt.Errorf("engine: negative MaxGroupJobs")
	}
	return nil
}
