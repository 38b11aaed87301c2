package replica_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTypeVectors: every column type of ../shared/typevectors, with every
// input of its vectors stored by the primary (non-strict, as MariaDB
// converts them), reaches the replica with the same value: the primary's
// ordered SQL dump equals the replica's rows read over HandlerSocket, row
// for row.
func TestTypeVectors(t *testing.T) {
	p := sharedPrimary(t)
	vecs := loadVectors(t)
	p.exec(t, "DROP DATABASE IF EXISTS tvr", "CREATE DATABASE tvr")
	for _, v := range vecs {
		create := strings.Replace(v.create, "tv.", "tvr.", 1)
		p.exec(t, create)
	}
	conn, err := p.Root.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "SET SESSION sql_mode=''"); err != nil {
		t.Fatal(err)
	}
	for _, v := range vecs {
		table := tableOf(v.create)
		if _, err := conn.ExecContext(t.Context(), "BEGIN"); err != nil {
			t.Fatal(err)
		}
		for k, in := range v.inputs {
			var arg any
			if in != nil {
				arg = *in
			}
			// An input the primary refuses even without strict mode is
			// left out: no row, nothing to replicate.
			conn.ExecContext(t.Context(), fmt.Sprintf("INSERT INTO tvr.%s VALUES (?, ?)", table), k, arg)
		}
		if _, err := conn.ExecContext(t.Context(), "COMMIT"); err != nil {
			t.Fatal(err)
		}
	}
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 30*time.Second)
	for _, v := range vecs {
		table := "tvr." + tableOf(v.create)
		// The replica's stored values, read over HandlerSocket, must
		// print as MariaDB's HandlerSocket printed the same stored
		// values (the vectors' hs_value), for each row the primary
		// holds. (The SQL front prints a few values differently from
		// MariaDB today: -0, zero months; not the replica's business.)
		var want []string
		for _, row := range dump(t, p.Root, table, "k") {
			k, _ := strconv.Unquote(strings.SplitN(row, "\t", 2)[0])
			i, _ := strconv.Atoi(k)
			hv := `\N`
			if v.hs[i] != nil {
				hv = strconv.Quote(*v.hs[i])
			}
			want = append(want, strconv.Quote(k)+"\t"+hv)
		}
		if len(want) == 0 {
			t.Errorf("%s: the primary holds no rows", table)
		}
		sameRows(t, table, want, hsDump(t, s, "tvr", tableOf(v.create), "k,c"))
	}
	p.exec(t, "DROP DATABASE tvr")
	catchUp(t, rdb, p, 10*time.Second)
}

// tableOf takes the table name out of "CREATE TABLE tv.name (...".
func tableOf(create string) string {
	s := create[strings.IndexByte(create, '.')+1:]
	return s[:strings.IndexByte(s, ' ')]
}
