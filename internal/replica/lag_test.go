package replica_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// lagEnv runs TestLag: how long to keep the write load up
// (HANDLERDB_REPLICA_LAG=20s); lagRateEnv is the load in transactions
// per second (default 1000). A measurement, not a check.
const (
	lagEnv     = "HANDLERDB_REPLICA_LAG"
	lagRateEnv = "HANDLERDB_REPLICA_LAG_RATE"
	// lagPrimaryEnv=handlerdb measures a replica of a HandlerDB primary
	// (--log-bin, in the process) instead of MariaDB's.
	lagPrimaryEnv = "HANDLERDB_REPLICA_LAG_PRIMARY"
)

// TestLag measures a replica's lag under a steady write load on the
// primary: four connections commit single-row transactions (an insert,
// every fourth an update) at the given total rate into a table with a
// secondary index, and a heartbeat connection writes the primary's clock
// (microseconds) into a one-row table every 10 ms, as pt-heartbeat does.
// Every 100 ms the replica's heartbeat row is read: the lag sample is
// now minus the primary's time in that row (one machine, one clock), so
// it is the age of the newest applied heartbeat, at most 10 ms more than
// the replica's true delay. Seconds_Behind_Source is sampled alongside.
// HandlerDB runs with durability sync (HANDLERDB_REPLICA_BENCH_DURABILITY
// changes it).
func TestLag(t *testing.T) {
	dur, _ := time.ParseDuration(os.Getenv(lagEnv))
	if dur <= 0 {
		t.Skipf("set %s=20s to measure the lag under load", lagEnv)
	}
	rate := 1000
	if v, err := strconv.Atoi(os.Getenv(lagRateEnv)); err == nil && v > 0 {
		rate = v
	}
	durability := engine.DurabilitySync
	if v := os.Getenv(benchEnv + "_DURABILITY"); v != "" {
		if err := durability.UnmarshalText([]byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	var p *primary
	if os.Getenv(lagPrimaryEnv) == "handlerdb" {
		p = handlerdbPrimary(t, durability)
	} else {
		sharedPrimary(t) // skips without mariadbd
		var err error
		if p, err = startPrimary(); err != nil {
			t.Fatal(err)
		}
	}
	defer p.Stop()
	p.exec(t, "CREATE DATABASE rlag",
		"CREATE TABLE rlag.w (id INT AUTO_INCREMENT PRIMARY KEY, g INT NOT NULL, v VARCHAR(40), KEY g (g))",
		"CREATE TABLE rlag.hb (id INT PRIMARY KEY, ts BIGINT NOT NULL)", "INSERT INTO rlag.hb VALUES (1, 0)")
	s := startReplica(t, "", func(c *config.Config) { c.Durability = durability })
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 30*time.Second)

	ctx, cancel := context.WithTimeout(t.Context(), dur)
	defer cancel()
	var wg sync.WaitGroup
	var txns atomic.Int64
	var werr atomic.Value
	const writers = 4
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(time.Second * writers / time.Duration(rate))
			defer tick.Stop()
			for i := 0; ; i++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				q := fmt.Sprintf("INSERT INTO rlag.w (g, v) VALUES (%d, 'w%d-%d')", i%1000, w, i)
				if i%4 == 3 {
					q = fmt.Sprintf("UPDATE rlag.w SET v = 'u%d' WHERE id = %d", i, max(1, txns.Load()/2))
				}
				if _, err := p.Root.ExecContext(ctx, q); err != nil && ctx.Err() == nil {
					werr.Store(err)
					return
				}
				txns.Add(1)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			q := "UPDATE rlag.hb SET ts = CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS UNSIGNED) WHERE id = 1"
			if _, err := p.Root.ExecContext(ctx, q); err != nil && ctx.Err() == nil {
				werr.Store(err)
				return
			}
		}
	}()

	// Samples from the second second on (the load's ramp left out).
	var lags []time.Duration
	behindMax := -1
	warm := time.Now().Add(time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
		}
		if done || time.Now().Before(warm) {
			continue
		}
		var ts int64
		if err := rdb.QueryRow("SELECT ts FROM rlag.hb WHERE id = 1").Scan(&ts); err != nil {
			t.Fatal(err)
		}
		lags = append(lags, time.Since(time.UnixMicro(ts)))
		if n, err := strconv.Atoi(replicaStatus(t, rdb)["Seconds_Behind_Source"]); err == nil {
			behindMax = max(behindMax, n)
		}
	}
	tick.Stop()
	wg.Wait()
	if err, ok := werr.Load().(error); ok {
		t.Fatalf("write load: %v", err)
	}
	catchUp(t, rdb, p, 60*time.Second)
	if len(lags) == 0 {
		t.Fatal("no samples")
	}
	slices.Sort(lags)
	pct := func(q float64) time.Duration {
		return lags[min(len(lags)-1, int(q*float64(len(lags))))].Round(time.Millisecond)
	}
	t.Logf("lag under %.0f transactions/s (asked %d) for %v, %d samples: p50 %v, p99 %v, max %v; Seconds_Behind_Source at most %d",
		float64(txns.Load())/dur.Seconds(), rate, dur, len(lags), pct(0.50), pct(0.99), lags[len(lags)-1].Round(time.Millisecond), behindMax)
}

// handlerdbPrimary starts a HandlerDB server writing its binary log (as
// server id 100) with the replication account, as the primary of TestLag:
// its address and root connections in a primary (no mariadbd: Stop only
// closes them; the server stops with the test).
func handlerdbPrimary(t *testing.T, durability engine.Durability) *primary {
	t.Helper()
	s := startReplica(t, "", func(c *config.Config) { c.LogBin, c.ServerID, c.Durability = true, 100, durability })
	db := sqlOf(t, s)
	for _, q := range []string{
		fmt.Sprintf("CREATE USER '%s'@'%%' IDENTIFIED BY '%s'", replUser, replPass),
		fmt.Sprintf("GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '%s'@'%%'", replUser),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_, port, _ := net.SplitHostPort(s.SQLAddr().String())
	n, _ := strconv.Atoi(port)
	return &primary{&mariadbtest.Server{Port: n, Root: db}}
}
