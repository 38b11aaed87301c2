package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"text/tabwriter"
)

// comparison is compare's JSON output.
type comparison struct {
	A       string    `json:"a"`
	B       string    `json:"b"`
	Rounds  []*result `json:"rounds"`
	Metrics []metric  `json:"metrics"`
}

// metric summarises one measure over the rounds: the mean of each side
// with its spread (relative standard deviation), and the per-round ratios
// B/A with their mean, minimum and maximum.
type metric struct {
	Name      string    `json:"name"`
	A         float64   `json:"a"`
	ASpread   float64   `json:"a_spread"`
	B         float64   `json:"b"`
	BSpread   float64   `json:"b_spread"`
	Ratio     float64   `json:"ratio"`
	RatioMin  float64   `json:"ratio_min"`
	RatioMax  float64   `json:"ratio_max"`
	Ratios    []float64 `json:"ratios"`
	latencyNs bool
}

// compare runs the workload against --a and --b in alternation (A B A B
// ...), so that drift of the machine affects both alike, and reports each
// metric's ratio B/A with its spread over the rounds.
func compare(ctx context.Context, o *options) error {
	var as, bs []*result
	var all []*result
	for round := 1; round <= o.rounds; round++ {
		for _, side := range []struct {
			spec string
			out  *[]*result
		}{{o.a, &as}, {o.b, &bs}} {
			if !o.quiet {
				fmt.Fprintf(o.stderr, "round %d/%d: %s\n", round, o.rounds, side.spec)
			}
			r, err := runOnce(ctx, o, side.spec)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", round, side.spec, err)
			}
			r.Round = round
			*side.out = append(*side.out, r)
			all = append(all, r)
		}
	}
	cmp := comparison{A: o.a, B: o.b, Rounds: all}
	for _, m := range []struct {
		name    string
		get     func(*result) float64
		latency bool
	}{
		{"ops/s", func(r *result) float64 { return r.OpsPerSec }, false},
		{"p50", func(r *result) float64 { return float64(r.P50) }, true},
		{"p99", func(r *result) float64 { return float64(r.P99) }, true},
		{"p99.9", func(r *result) float64 { return float64(r.P999) }, true},
		{"max", func(r *result) float64 { return float64(r.Max) }, true},
		{"KB/s", func(r *result) float64 { return r.KBPerSec }, false},
		{"errors", func(r *result) float64 { return float64(r.Errors) }, false},
	} {
		cmp.Metrics = append(cmp.Metrics, summarize(m.name, as, bs, m.get, m.latency))
	}
	if as[0].ServerCPUNsPerOp != nil && bs[0].ServerCPUNsPerOp != nil {
		cmp.Metrics = append(cmp.Metrics, summarize("srv cpu/op", as, bs, func(r *result) float64 {
			if r.ServerCPUNsPerOp == nil {
				return 0
			}
			return *r.ServerCPUNsPerOp
		}, true))
	}
	if o.json {
		return writeJSON(o.stdout, cmp)
	}
	printTable(o.stdout, all)
	fmt.Fprintf(o.stdout, "\n%s vs %s, %s, conns=%d, pipeline=%d, %d rounds (A B A B ...):\n",
		o.a, o.b, o.workloadName(), o.conns, o.pipeline, o.rounds)
	tw := tabwriter.NewWriter(o.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "metric\tA %s\tB %s\tB/A\tB/A range\t\n", o.a, o.b)
	for _, m := range cmp.Metrics {
		val := func(v float64) string {
			if m.latencyNs {
				return fmtDur(int64(v))
			}
			return fmt.Sprintf("%.0f", v)
		}
		ratio, rng := "-", "-"
		if len(m.Ratios) > 0 {
			ratio = fmt.Sprintf("%.3f", m.Ratio)
			rng = fmt.Sprintf("%.3f..%.3f", m.RatioMin, m.RatioMax)
		}
		fmt.Fprintf(tw, "%s\t%s ±%.1f%%\t%s ±%.1f%%\t%s\t%s\t\n", m.Name, val(m.A), m.ASpread*100, val(m.B), m.BSpread*100, ratio, rng)
	}
	tw.Flush()
	fmt.Fprintln(o.stdout)
	for _, r := range all {
		fmt.Fprintln(o.stdout, benchLine(r))
	}
	return nil
}

func summarize(name string, as, bs []*result, get func(*result) float64, latency bool) metric {
	m := metric{Name: name, latencyNs: latency}
	av, bv := make([]float64, len(as)), make([]float64, len(bs))
	for i := range as {
		av[i], bv[i] = get(as[i]), get(bs[i])
		if av[i] != 0 {
			m.Ratios = append(m.Ratios, bv[i]/av[i])
		}
	}
	m.A, m.ASpread = meanSpread(av)
	m.B, m.BSpread = meanSpread(bv)
	if len(m.Ratios) == 0 {
		return m // A was 0 in every round: no ratio
	}
	m.Ratio, _ = meanSpread(m.Ratios)
	m.RatioMin, m.RatioMax = slices.Min(m.Ratios), slices.Max(m.Ratios)
	return m
}

// meanSpread returns the mean and the relative standard deviation.
func meanSpread(v []float64) (mean, spread float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if mean == 0 || len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/float64(len(v)-1)) / math.Abs(mean)
}
