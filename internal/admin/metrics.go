package admin

import (
	"sort"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/replica"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// Metrics are the server's Prometheus metrics. The counters live in the
// engine and the fronts as atomics and are read at scrape time; only the
// latency and group-commit histograms are observed as things happen.
type Metrics struct {
	e   *engine.Engine
	hs  atomic.Pointer[hsfront.Server]
	sql atomic.Pointer[sqlfront.Stats]
	rep atomic.Pointer[replica.Replica]

	descLatency *prometheus.Desc
	hsLatency   [2][hsfront.NumOps]batchHistogram // by port and class
	groupJobs   prometheus.Histogram
	groupTime   prometheus.Histogram
	groupFailed prometheus.Counter

	descRequests, descConns, descAuthFail, descAccepted, descRefused       *prometheus.Desc
	descRefusedPeer, descExpired, descAuthBackoff                          *prometheus.Desc
	descRowsRead, descRowsWritten, descGroups                              *prometheus.Desc
	descCompactions, descCacheHits, descCacheMisses, descCacheBytes        *prometheus.Desc
	descRowCacheHits, descRowCacheMisses, descRowCacheBytes                *prometheus.Desc
	descFsync, descWALBytes, descDiskBytes                                 *prometheus.Desc
	descReplRunning, descReplBehind, descReplApplied, descReplErrno        *prometheus.Desc
	descReplStaged                                                         *prometheus.Desc
	descCopying, descCopyRows, descCopyEstimate, descCopyRate, descCopyETA *prometheus.Desc
}

// NewMetrics builds the metrics of e and registers them in reg. It
// installs the engine's group-commit hook. AttachHS adds the HandlerSocket
// front's counters.
func NewMetrics(reg *prometheus.Registry, e *engine.Engine) *Metrics {
	m := &Metrics{e: e}
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
func (m *Metrics) AttachSQL(st *sqlfront.Stats) { m.sql.Store(st) }

// AttachReplica makes the metrics report r's progress.
func (m *Metrics) AttachReplica(r *replica.Replica) { m.rep.Store(r) }

// AttachHS makes the metrics report hs's counters.
func (m *Metrics) AttachHS(hs *hsfront.Server) { m.hs.Store(hs) }

var ports = [2]string{"read", "write"}

// ObserveHS is the hsfront.Config.Observe hook: n requests of class op
// that took d each.
func (m *Metrics) ObserveHS(write bool, op hsfront.Op, ok bool, d time.Duration, n int) {
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
		m.descCacheBytes, m.descFsync, m.descWALBytes, m.descDiskBytes, m.descRowCacheHits, m.descRowCacheMisses,
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
		for op := hsfront.Op(0); op < hsfront.NumOps; op++ {
			ch <- m.hsLatency[p][op].metric(m.descLatency, ports[p], op.String())
		}
	}
	if hs := m.hs.Load(); hs != nil {
		st := hs.Stats()
		for p := range ports {
			for op := hsfront.Op(0); op < hsfront.NumOps; op++ {
				for r, res := range []string{"ok", "error"} {
					if v := st.Ops[p][op][r].Load(); v > 0 {
						counter(m.descRequests, float64(v), "handlersocket", ports[p], op.String(), res)
					}
				}
			}
			gauge(m.descConns, float64(st.Open[p].Load()), "handlersocket", ports[p])
		}
		counter(m.descAuthFail, float64(st.AuthFail.Load()), "handlersocket")
		counter(m.descAccepted, float64(st.Accepted.Load()), "handlersocket")
		counter(m.descRefused, float64(st.Refused.Load()), "handlersocket")
		counter(m.descRefusedPeer, float64(st.RefusedPeer.Load()), "handlersocket")
		counter(m.descExpired, float64(st.Expired.Load()), "handlersocket")
		counter(m.descAuthBackoff, float64(hs.AuthBackoffs()), "handlersocket")
	}
	if r := m.rep.Load(); r != nil {
		st := r.Stats()
		yes := func(s string) float64 {
			if s == "Yes" {
				return 1
			}
			return 0
		}
		gauge(m.descReplRunning, yes(st.IO), "io")
		gauge(m.descReplRunning, yes(st.SQL), "sql")
		gauge(m.descReplBehind, float64(st.SecondsBehind))
		counter(m.descReplApplied, float64(st.Applied))
		counter(m.descReplStaged, float64(st.Staged))
		gauge(m.descReplErrno, float64(st.LastIOErrno), "io")
		gauge(m.descReplErrno, float64(st.LastSQLErrno), "sql")
		copying := 0.0
		if st.Copying {
			copying = 1
		}
		gauge(m.descCopying, copying)
		gauge(m.descCopyRows, float64(st.CopyRows))
		gauge(m.descCopyEstimate, float64(st.CopyEstimate))
		gauge(m.descCopyRate, st.CopyRate)
		eta := st.CopyETA.Seconds()
		if st.CopyETA < 0 {
			eta = -1
		}
		gauge(m.descCopyETA, eta)
	}
	if st := m.sql.Load(); st != nil {
		for c := 0; c < sqlfront.NumStmts; c++ {
			for r, res := range []string{"ok", "error"} {
				if v := st.Queries[c][r].Load(); v > 0 {
					counter(m.descRequests, float64(v), "mysql", "sql", sqlfront.StmtNames[c], res)
				}
			}
		}
		gauge(m.descConns, float64(st.Connections.Load()), "mysql", "sql")
		counter(m.descAuthFail, float64(st.AuthFail.Load()), "mysql")
		counter(m.descRefused, float64(st.Refused.Load()), "mysql")
		counter(m.descExpired, float64(st.ConnectTimeouts.Load()), "mysql")
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
