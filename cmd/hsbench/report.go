package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// result is the outcome of one run.
type result struct {
	Target    string  `json:"target"`
	Workload  string  `json:"workload"`
	Conns     int     `json:"conns"`
	Pipeline  int     `json:"pipeline"`
	Rate      float64 `json:"rate,omitempty"`
	Keys      int64   `json:"keys"`
	KeyDist   string  `json:"key_dist"`
	ValueSize int     `json:"value_size"`

	Seconds   float64 `json:"seconds"`
	Ops       int64   `json:"ops"`
	Errors    int64   `json:"errors"`
	OpsPerSec float64 `json:"ops_per_sec"`
	// latencies in nanoseconds
	P50   int64   `json:"p50_ns"`
	P99   int64   `json:"p99_ns"`
	P999  int64   `json:"p999_ns"`
	Max   int64   `json:"max_ns"`
	Mean  float64 `json:"mean_ns"`
	Round int     `json:"round,omitempty"`

	WireBytes        int64    `json:"wire_bytes"`
	KBPerSec         float64  `json:"kb_per_sec"`
	ServerCPUSeconds float64  `json:"server_cpu_seconds,omitempty"`
	ServerCPUNsPerOp *float64 `json:"server_cpu_ns_per_op,omitempty"`

	hist *hdrhistogram.Histogram
}

// finish computes the derived numbers.
func (r *result) finish() {
	if r.Seconds > 0 {
		r.OpsPerSec = float64(r.Ops) / r.Seconds
		r.KBPerSec = float64(r.WireBytes) / 1024 / r.Seconds
	}
	r.P50 = r.hist.ValueAtQuantile(50)
	r.P99 = r.hist.ValueAtQuantile(99)
	r.P999 = r.hist.ValueAtQuantile(99.9)
	r.Max = r.hist.Max()
	r.Mean = r.hist.Mean()
}

// report prints results as the table and benchmark lines, or as JSON.
func report(o *options, rs []*result) error {
	if o.json {
		return writeJSON(o.stdout, rs)
	}
	printTable(o.stdout, rs)
	fmt.Fprintln(o.stdout)
	for _, r := range rs {
		fmt.Fprintln(o.stdout, benchLine(r))
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printTable(w io.Writer, rs []*result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cpu := false
	for _, r := range rs {
		cpu = cpu || r.ServerCPUNsPerOp != nil
	}
	head := "target\tworkload\tconns\tpipeline\tops/s\tp50\tp99\tp99.9\tmax\terrors\tKB/s\t"
	if cpu {
		head += "srv cpu/op\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rs {
		line := fmt.Sprintf("%s\t%s\t%d\t%d\t%.0f\t%s\t%s\t%s\t%s\t%d\t%.0f\t",
			r.Target, r.Workload, r.Conns, r.Pipeline, r.OpsPerSec,
			fmtDur(r.P50), fmtDur(r.P99), fmtDur(r.P999), fmtDur(r.Max), r.Errors, r.KBPerSec)
		if cpu {
			if r.ServerCPUNsPerOp != nil {
				line += fmtDur(int64(*r.ServerCPUNsPerOp)) + "\t"
			} else {
				line += "-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

// benchName is the Go benchmark name of a result, e.g.
// BenchmarkHS/get/conns=16/pipeline=1.
func benchName(r *result) string {
	name := map[string]string{"hs": "HS", "mysql": "MySQL", "mysql-text": "MySQLText", "memcached": "Memcached"}[r.Target]
	s := "Benchmark" + name + "/" + r.Workload + "/conns=" + strconv.Itoa(r.Conns) + "/pipeline=" + strconv.Itoa(r.Pipeline)
	if r.Rate > 0 {
		s += "/rate=" + strconv.FormatFloat(r.Rate, 'f', -1, 64)
	}
	if r.KeyDist != "uniform" {
		s += "/" + r.KeyDist
	}
	return s
}

// benchLine formats a result as a Go benchmark line for benchstat: the
// iterations are the operations, ns/op the wall time per operation over
// all connections (1e9 / ops/s), and the latency percentiles, errors, wire
// throughput and server CPU follow as extra units.
func benchLine(r *result) string {
	var b strings.Builder
	nsPerOp := 0.0
	if r.Ops > 0 {
		nsPerOp = r.Seconds * 1e9 / float64(r.Ops)
	}
	fmt.Fprintf(&b, "%s\t%d\t%.1f ns/op\t%d p50-ns\t%d p99-ns\t%d p99.9-ns\t%d max-ns\t%d errors\t%.1f KB/s",
		benchName(r), r.Ops, nsPerOp, r.P50, r.P99, r.P999, r.Max, r.Errors, r.KBPerSec)
	if r.ServerCPUNsPerOp != nil {
		fmt.Fprintf(&b, "\t%.0f srv-cpu-ns/op", *r.ServerCPUNsPerOp)
	}
	return b.String()
}

// fmtDur prints a nanosecond latency with 3 significant digits.
func fmtDur(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", ns)
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", float64(ns)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.3gms", float64(ns)/1e6)
	}
	return fmt.Sprintf("%.3gs", d.Seconds())
}

// cpuSeconds reads utime + stime of a process from /proc/<pid>/stat.
func cpuSeconds(pid int) (float64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// the command name (field 2) is in parentheses and may hold spaces
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return float64(ut+st) / clockTicks, true
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100
