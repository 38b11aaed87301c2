package hsfront

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// TestReplyLargerThanSocketBuffer: a reply the socket cannot take at once
// (a slow reader) is kept and sent as the client reads; the next request
// on the connection is answered after it, in order.
func TestReplyLargerThanSocketBuffer(t *testing.T) {
	e, s := startTestServer(t, Config{})
	const rows, width = 8000, 1000
	err := e.Update(context.Background(), func(tx *engine.Job) error {
		tb, err := tx.CreateTable("conf", &engine.TableDef{Name: "big",
			Columns: []types.Column{{Name: "k", Type: types.Type{Kind: types.Int}},
				{Name: "v", Type: types.Type{Kind: types.VarChar, Length: width, Collation: collation.Default}}},
			Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"k"}}}})
		if err != nil {
			return err
		}
		v := []byte(strings.Repeat("x", width))
		for i := 0; i < rows; i++ {
			if _, err := tx.Insert(tb, engine.Row{{I: int64(i)}, {B: v}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, s.ReadAddr())
	c.r = bufio.NewReaderSize(c.c, 1<<16)
	c.do("P\t1\tconf\tbig\tPRIMARY\tk,v\n", "0\t1\n")
	// ~8 MB of reply, then a second request right behind it.
	if _, err := c.c.Write([]byte("1\t>=\t1\t0\t100000\t0\n1\t=\t1\t7\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the server fill the socket
	c.c.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := c.r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(line, "\t"); got != 1+2*rows {
		t.Fatalf("big reply has %d fields, want %d", got, 1+2*rows)
	}
	second, err := c.r.ReadString('\n')
	if err != nil || second != "0\t2\t7\t"+strings.Repeat("x", width)+"\n" {
		t.Fatalf("second reply %.40q... (%v)", second, err)
	}
	// The connection is still usable.
	c.do("1\t=\t1\t1\n", "0\t2\t1\t"+strings.Repeat("x", width)+"\n")
}
