package replica

import (
	"strings"
	"testing"
	"time"

	gmysql "github.com/go-mysql-org/go-mysql/mysql"
)

// TestCopyProgress: the rate, ETA and state line of a copy.
func TestCopyProgress(t *testing.T) {
	p := &copyProgress{start: time.Now().Add(-10 * time.Second), rows: 1000, total: 3000, table: "d.t"}
	if r := p.rate(); r < 99 || r > 101 {
		t.Errorf("rate %.1f, want 100", r)
	}
	if eta := p.eta().Round(time.Second); eta < 19*time.Second || eta > 21*time.Second {
		t.Errorf("eta %v, want 20s", eta)
	}
	if s := p.state(); !strings.HasPrefix(s, "Initial copy: 1000 of about 3000 rows, 100 rows/s, ETA 20s (table d.t)") {
		t.Errorf("state %q", s)
	}
	p.total = 0 // no estimate
	if p.eta() >= 0 || !strings.Contains(p.state(), "ETA unknown") {
		t.Errorf("without an estimate: eta %v, state %q", p.eta(), p.state())
	}
	p.total = 500 // the estimate was low
	if p.eta() != 0 {
		t.Errorf("past the estimate: eta %v, want 0", p.eta())
	}
}

// TestGTIDMode: which positioning a stream uses.
func TestGTIDMode(t *testing.T) {
	auto, plain := &source{AutoPosition: true}, &source{}
	for _, c := range []struct {
		flavor string
		s      *source
		pos    position
		want   bool
	}{
		{gmysql.MariaDBFlavor, plain, position{}, true},
		{gmysql.MariaDBFlavor, plain, position{GTID: "0-1-5", File: "b.1", Pos: 9}, true},
		{gmysql.MariaDBFlavor, plain, position{File: "b.1", Pos: 9}, false}, // a copy of a primary that never logged a GTID
		{gmysql.MySQLFlavor, plain, position{}, false},
		{gmysql.MySQLFlavor, auto, position{}, true},
		{gmysql.MySQLFlavor, auto, position{File: "b.1", Pos: 9}, false},
		{gmysql.MySQLFlavor, auto, position{GTID: "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-3", File: "b.1"}, true},
	} {
		if got := gtidMode(c.flavor, c.s, c.pos); got != c.want {
			t.Errorf("%s auto=%v %+v: %v, want %v", c.flavor, c.s.AutoPosition, c.pos, got, c.want)
		}
	}
}
