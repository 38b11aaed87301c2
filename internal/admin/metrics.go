package admin

import (
	"sort"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// A FrontSource is a front whose counters the metrics read at scrape
// time. FrontCounters is called on the scrape's goroutine while the
// front serves, so it reads what it reports atomically.
type FrontSource interface {
	FrontCounters() FrontCounters
}

// FrontCounters are one front's counters at one moment, as the metrics
// label them. A negative count is one the front does not keep (not
// reported).
type FrontCounters struct {
	Front                                                          string         // the front label: "handlersocket", "mysql", "memcached"
	Requests                                                       []RequestCount // requests answered, where non-zero
	Conns                                                          []PortCount    // open connections by port
	AuthFail, Accepted, Refused, RefusedPeer, Expired, AuthBackoff int64
}

// RequestCount is the number of requests of one port, operation and
// result ("ok", "error").
type RequestCount struct {
	Port, Op, Result string
	N                int64
}

// PortCount is a count of one port.
type PortCount struct {
	Port string
	N    int64
}

// A ReplicaSource is the replica, read at scrape time as FrontSource is.
type ReplicaSource interface {
	ReplicaCounters() ReplicaCounters
}

// ReplicaCounters are the replica's progress at one moment.
type ReplicaCounters struct {
	IORunning, SQLRunning     bool
	SecondsBehind             int64 // -1: NULL
	Applied, Staged           uint64
	LastIOErrno, LastSQLErrno uint
	Copying                   bool
	CopyRows, CopyEstimate    uint64
	CopyRate                  float64
	CopyETA                   time.Duration // -1: unknown
}

// Metrics are the server's Prometheus metrics. The counters live in the
// engine and the fronts as atomics and are read at scrape time; only the
// latency and group-commit histograms are observed as things happen.
type Metrics struct {
	e   *engine.Engine
	hs  atomic.Pointer[FrontSource]
	sql atomic.Pointer[FrontSource]
	mc  atomic.Pointer[FrontSource]
	rep atomic.Pointer[ReplicaSource]

	descLatency *prometheus.Desc
	hsOps       []string            // the HandlerSocket request classes' names
	hsLatency   [2][]batchHistogram // by port and class
	groupJobs   prometheus.Histogram
	groupTime   prometheus.Histogram
	groupFailed prometheus.Counter

	descRequests, descConns, descAuthFail, descAccepted, descRefused       *prometheus.Desc
	descRefusedPeer, descExpired, descAuthBackoff                          *prometheus.Desc
	descRowsRead, descRowsWritten, descGroups                              *prometheus.Desc
	descCompactions, descCacheHits, descCacheMisses, descCacheBytes        *prometheus.Desc
	descSnapshots, descSnapshotPinned, descMemtableBytes                   *prometheus.Desc
	descRowCacheHits, descRowCacheMisses, descRowCacheBytes                *prometheus.Desc
	descFsync, descWALBytes, descDiskBytes                                 *prometheus.Desc
	descReplRunning, descReplBehind, descReplApplied, descReplErrno        *prometheus.Desc
	descReplStaged                                                         *prometheus.Desc
	descCopying, descCopyRows, descCopyEstimate, descCopyRate, descCopyETA *prometheus.Desc
}

// NewMetrics builds the metrics of e and registers them in reg, with a
// latency histogram per port for each of the HandlerSocket request
// classes hsOps names (ObserveHS's op indexes it). It installs the
// engine's group-commit hook. AttachHS adds the HandlerSocket front's
// counters.
func NewMetrics(reg *prometheus.Registry, e *engine.Engine, hsOps []string) *Metrics {
	m := &Metrics{e: e, hsOps: hsOps}
	for p := range m.hsLatency {
		m.hsLatency[p] = make([]batchHistogram, len(hsOps))
	}
	m.descLatency = prometheus.NewDesc("handlerdb_handlersocket_request_duration_seconds",
		"Time to execute one HandlerSocket request: the requests a connection sent together share the time of their batch equally (write-port requests include waiting for their group commit).",
		[]string{"port", "op"}, nil)
	m.groupJobs = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "handlerdb_group_commit_jobs",
		Help:    "Jobs (write batches and SQL commits) per group commit.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 11),
	})
	m.groupTime = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "handlerdb_group_commit_duration_seconds",
		Help:    "Time to apply and commit one group (with its fsync in sync durability).",
		Buckets: prometheus.ExponentialBuckets(1e-5, 3, 12),
	})
	m.groupFailed = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "handlerdb_group_commit_failures_total",
		Help: "Group commits that failed (their jobs were answered with an error).",
	})
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	m.descRequests = d("handlerdb_requests_total", "Requests answered, by front, port, operation and result.", "front", "port", "op", "result")
	m.descConns = d("handlerdb_connections", "Open connections by front and port.", "front", "port")
	m.descAuthFail = d("handlerdb_auth_failures_total", "Failed authentication attempts, by front.", "front")
	m.descAccepted = d("handlerdb_connections_accepted_total", "Connections accepted, by front.", "front")
	m.descRefused = d("handlerdb_connections_refused_total", "Connections closed at once because the connection limit was reached, by front.", "front")
	m.descRefusedPeer = d("handlerdb_connections_refused_per_peer_total", "Connections closed at once because their peer address had its most connections (also in connections_refused_total), by front.", "front")
	m.descAuthBackoff = d("handlerdb_auth_backoff_total", "Authentication attempts refused unchecked by the per-peer back-off, by front.", "front")
	m.descExpired = d("handlerdb_connections_expired_total", "Connections closed for a timeout: HandlerSocket idle or partial-line timeout, SQL connect_timeout; by front.", "front")
	m.descReplRunning = d("handlerdb_replica_running", "1 when the replica's thread runs: thread io (connected to the source) or sql (applying).", "thread")
	m.descReplBehind = d("handlerdb_replica_seconds_behind_source", "Seconds_Behind_Source: now minus the source's time of the event being applied, 0 when caught up (-1: NULL, a thread or the initial copy runs not).")
	m.descCopying = d("handlerdb_replica_copy_running", "1 while the replica's initial copy of its source runs.")
	m.descCopyRows = d("handlerdb_replica_copy_rows", "Rows the running (else the last) initial copy wrote.")
	m.descCopyEstimate = d("handlerdb_replica_copy_rows_estimated", "The source's estimate of the rows the initial copy has to write.")
	m.descCopyRate = d("handlerdb_replica_copy_rows_per_second", "Rows per second of the initial copy so far.")
	m.descCopyETA = d("handlerdb_replica_copy_eta_seconds", "Seconds the running initial copy still needs at its rate (-1: unknown).")
	m.descReplApplied = d("handlerdb_replica_transactions_applied_total", "Source transactions the replica applied since its stream started.")
	m.descReplStaged = d("handlerdb_replica_staged_transactions_total", "Source transactions too large to hold in memory, applied as staged jobs (--replica-stage-bytes).")
	m.descReplErrno = d("handlerdb_replica_last_error", "The MySQL number of the replica thread's last error (0: none), by thread.", "thread")
	m.descRowsRead = d("handlerdb_rows_read_total", "Rows returned by the engine's finds.")
	m.descRowsWritten = d("handlerdb_rows_written_total", "Rows inserted, updated or deleted (committed).")
	m.descGroups = d("handlerdb_group_commits_total", "Group commits.")
	m.descCompactions = d("handlerdb_pebble_compactions_total", "Compactions run by the store.")
	m.descCacheHits = d("handlerdb_pebble_block_cache_hits_total", "Block cache hits.")
	m.descCacheMisses = d("handlerdb_pebble_block_cache_misses_total", "Block cache misses.")
	m.descCacheBytes = d("handlerdb_pebble_block_cache_bytes", "Bytes held by the block cache.")
	m.descSnapshots = d("handlerdb_pebble_snapshots", "Open store snapshots (REPEATABLE READ transactions' consistent reads): each keeps the row versions newer than it, which reads then step over.")
	m.descSnapshotPinned = d("handlerdb_pebble_snapshot_pinned_keys_total", "Key versions that compactions kept only for an open snapshot.")
	m.descMemtableBytes = d("handlerdb_pebble_memtable_bytes", "Bytes held by the store's memtables.")
	m.descRowCacheHits = d("handlerdb_row_cache_hits_total", "Point lookups answered by the row cache.")
	m.descRowCacheMisses = d("handlerdb_row_cache_misses_total", "Point lookups the row cache could not answer.")
	m.descRowCacheBytes = d("handlerdb_row_cache_bytes", "Approximate bytes held by the row cache.")
	m.descFsync = d("handlerdb_pebble_wal_fsync_duration_seconds", "WAL fsync latency.")
	m.descWALBytes = d("handlerdb_pebble_wal_written_bytes_total", "Bytes written to the write-ahead log.")
	m.descDiskBytes = d("handlerdb_pebble_disk_usage_bytes", "Bytes the store uses on disk.")
	reg.MustRegister(m, m.groupJobs, m.groupTime, m.groupFailed)
	e.SetGroupHook(func(g engine.GroupStats) {
		m.groupJobs.Observe(float64(g.Jobs))
		m.groupTime.Observe(g.Duration.Seconds())
		if g.Failed {
			m.groupFailed.Inc()
		}
	})
	return m
}

// AttachSQL makes the metrics report the MySQL front's counters.
func (m *Metrics) AttachSQL(s FrontSource) { m.sql.Store(&s) }

// AttachReplica makes the metrics report the replica's progress.
func (m *Metrics) AttachReplica(r ReplicaSource) { m.rep.Store(&r) }

// AttachHS makes the metrics report the HandlerSocket front's counters.
func (m *Metrics) AttachHS(s FrontSource) { m.hs.Store(&s) }

// AttachMemcached makes the metrics report the memcached front's
// counters.
func (m *Metrics) AttachMemcached(s FrontSource) { m.mc.Store(&s) }

var ports = [2]string{"read", "write"}

// ObserveHS records n HandlerSocket requests of class op (an index of
// NewMetrics's hsOps) that took d each; it is the front's Observe hook.
// Safe for concurrent use.
func (m *Metrics) ObserveHS(write bool, op int, ok bool, d time.Duration, n int) {
	m.hsLatency[portIndex(write)][op].observe(d, n)
}

// latencyBuckets are the upper bounds of the request latency histogram.
var latencyBuckets = prometheus.ExponentialBuckets(1e-6, 4, 12)

// batchHistogram is a latency histogram over latencyBuckets that takes n
// equal observations in one call, so that a batch of requests costs one
// bucket search and two atomic adds. Safe for concurrent use.
type batchHistogram struct {
	counts   [13]atomic.Uint64 // per bucket (not cumulative); the last is +Inf
	sumNanos atomic.Int64
}

func (h *batchHistogram) observe(d time.Duration, n int) {
	i := sort.SearchFloat64s(latencyBuckets, d.Seconds()) // the first bound >= d
	h.counts[i].Add(uint64(n))
	h.sumNanos.Add(int64(d) * int64(n))
}

// metric is h as a Prometheus histogram; the count is the buckets' sum,
// so it always equals the +Inf bucket.
func (h *batchHistogram) metric(desc *prometheus.Desc, labels ...string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(latencyBuckets))
	var cum uint64
	for i, b := range latencyBuckets {
		cum += h.counts[i].Load()
		buckets[b] = cum
	}
	cum += h.counts[len(latencyBuckets)].Load()
	return prometheus.MustNewConstHistogram(desc, cum, float64(h.sumNanos.Load())/1e9, buckets, labels...)
}

func portIndex(write bool) int {
	if write {
		return 1
	}
	return 0
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.descRequests, m.descConns, m.descAuthFail, m.descAccepted, m.descRefused, m.descRefusedPeer, m.descExpired, m.descAuthBackoff,
		m.descRowsRead, m.descRowsWritten, m.descGroups, m.descCompactions, m.descCacheHits, m.descCacheMisses,
		m.descCacheBytes, m.descSnapshots, m.descSnapshotPinned, m.descMemtableBytes, m.descFsync, m.descWALBytes, m.descDiskBytes, m.descRowCacheHits, m.descRowCacheMisses,
		m.descRowCacheBytes, m.descReplRunning, m.descReplBehind, m.descReplApplied, m.descReplStaged, m.descReplErrno,
		m.descCopying, m.descCopyRows, m.descCopyEstimate, m.descCopyRate, m.descCopyETA, m.descLatency} {
		ch <- d
	}
}

// Collect implements prometheus.Collector, reading the live counters.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	for p := range ports {
		for op, name := range m.hsOps {
			ch <- m.hsLatency[p][op].metric(m.descLatency, ports[p], name)
		}
	}
	for _, src := range []*atomic.Pointer[FrontSource]{&m.hs, &m.sql, &m.mc} {
		if s := src.Load(); s != nil {
			m.collectFront((*s).FrontCounters(), counter, gauge)
		}
	}
	if r := m.rep.Load(); r != nil {
		st := (*r).ReplicaCounters()
		yes := func(b bool) float64 {
			if b {
				return 1
			}
			return 0
		}
		gauge(m.descReplRunning, yes(st.IORunning), "io")
		gauge(m.descReplRunning, yes(st.SQLRunning), "sql")
		gauge(m.descReplBehind, float64(st.SecondsBehind))
		counter(m.descReplApplied, float64(st.Applied))
		counter(m.descReplStaged, float64(st.Staged))
		gauge(m.descReplErrno, float64(st.LastIOErrno), "io")
		gauge(m.descReplErrno, float64(st.LastSQLErrno), "sql")
		gauge(m.descCopying, yes(st.Copying))
		gauge(m.descCopyRows, float64(st.CopyRows))
		gauge(m.descCopyEstimate, float64(st.CopyEstimate))
		gauge(m.descCopyRate, st.CopyRate)
		eta := st.CopyETA.Seconds()
		if st.CopyETA < 0 {
			eta = -1
		}
		gauge(m.descCopyETA, eta)
	}
	es := m.e.Stats()
	counter(m.descRowsRead, float64(es.RowsRead.Load()))
	counter(m.descRowsWritten, float64(es.RowsWritten.Load()))
	counter(m.descGroups, float64(es.Groups.Load()))
	pm := m.e.DB().Metrics()
	counter(m.descCompactions, float64(pm.Compact.Count))
	counter(m.descCacheHits, float64(pm.BlockCache.Hits))
	counter(m.descCacheMisses, float64(pm.BlockCache.Misses))
	gauge(m.descCacheBytes, float64(pm.BlockCache.Size))
	gauge(m.descSnapshots, float64(pm.Snapshots.Count))
	counter(m.descSnapshotPinned, float64(pm.Snapshots.PinnedKeys))
	gauge(m.descMemtableBytes, float64(pm.MemTable.Size))
	rc := m.e.RowCacheStats()
	counter(m.descRowCacheHits, float64(rc.Hits))
	counter(m.descRowCacheMisses, float64(rc.Misses))
	gauge(m.descRowCacheBytes, float64(rc.Bytes))
	counter(m.descWALBytes, float64(pm.WAL.BytesWritten))
	gauge(m.descDiskBytes, float64(pm.DiskSpaceUsage()))
	if h := pm.LogWriter.FsyncLatency; h != nil {
		if hm := fsyncHistogram(m.descFsync, h); hm != nil {
			ch <- hm
		}
	}
}

// collectFront reports one front's counters.
func (m *Metrics) collectFront(c FrontCounters, counter, gauge func(*prometheus.Desc, float64, ...string)) {
	for _, r := range c.Requests {
		counter(m.descRequests, float64(r.N), c.Front, r.Port, r.Op, r.Result)
	}
	for _, p := range c.Conns {
		gauge(m.descConns, float64(p.N), c.Front, p.Port)
	}
	for _, v := range []struct {
		d *prometheus.Desc
		n int64
	}{{m.descAuthFail, c.AuthFail}, {m.descAccepted, c.Accepted}, {m.descRefused, c.Refused},
		{m.descRefusedPeer, c.RefusedPeer}, {m.descExpired, c.Expired}, {m.descAuthBackoff, c.AuthBackoff}} {
		if v.n >= 0 {
			counter(v.d, float64(v.n), c.Front)
		}
	}
}

// fsyncHistogram re-exports Pebble's unnamed fsync histogram (nanoseconds)
// under our name, in seconds.
func fsyncHistogram(d *prometheus.Desc, h prometheus.Histogram) prometheus.Metric {
	var out dto.Metric
	if err := h.Write(&out); err != nil || out.Histogram == nil {
		return nil
	}
	buckets := map[float64]uint64{}
	for _, b := range out.Histogram.Bucket {
		buckets[b.GetUpperBound()/1e9] = b.GetCumulativeCount()
	}
	mt, err := prometheus.NewConstHistogram(d, out.Histogram.GetSampleCount(), out.Histogram.GetSampleSum()/1e9, buckets)
	if err != nil {
		return nil
	}
	return mt
}
