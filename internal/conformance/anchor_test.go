package conformance

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
)

// TestAgainstRealPlugin replays the corpus against the real HandlerSocket
// when CONFORMANCE_MYSQL_DSN (a DSN whose user may create database conf)
// and CONFORMANCE_HS (read,write addresses) are set, e.g. against
// ../shared/anchors/mariadb-hs.sh:
//
//	CONFORMANCE_MYSQL_DSN='bench:bench@tcp(127.0.0.1:13306)/' \
//	CONFORMANCE_HS=127.0.0.1:19998,127.0.0.1:19999 go test -run RealPlugin -v ./internal/conformance/
//
// It checks the runner itself: recorded cases must pass on the server they
// were recorded from. CONFORMANCE_TARGET picks the files (default or auth;
// start the anchor with SECRET=rdsecret SECRET_WR=wrsecret for auth).
func TestAgainstRealPlugin(t *testing.T) {
	dsn, hs := os.Getenv("CONFORMANCE_MYSQL_DSN"), os.Getenv("CONFORMANCE_HS")
	if dsn == "" || hs == "" {
		t.Skip("set CONFORMANCE_MYSQL_DSN and CONFORMANCE_HS to run against a real HandlerSocket")
	}
	target := os.Getenv("CONFORMANCE_TARGET")
	if target == "" {
		target = "default"
	}
	rd, wr, _ := strings.Cut(hs, ",")
	root, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.Exec("CREATE DATABASE IF NOT EXISTS conf"); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", strings.TrimSuffix(dsn, "/")+"/conf")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	files, err := ParseDir("../../testdata/conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	passed, failed := 0, 0
	for _, f := range files {
		if f.Target != target {
			continue
		}
		for _, c := range f.Cases {
			if c.Deviation {
				continue // HandlerDB differs from the plugin here on purpose
			}
			if err := Run(Target{SQL: db, ReadAddr: rd, WriteAddr: wr}, c); err != nil {
				failed++
				t.Error(err)
			} else {
				passed++
			}
		}
	}
	t.Logf("real plugin, %s: %d passed, %d failed", target, passed, failed)
}
