package server

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// A HandlerSocket find that runs while ALTER TABLE rewrites the table
// finds its row: ALTER moves the rows under new index ids and publishes
// the new catalog just after its commit, and a find that found nothing
// meanwhile resolves the table again.
func TestFindsDuringAlter(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "da")
	if _, err := db.Exec("CREATE TABLE t (k INT PRIMARY KEY, v INT)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", i, i*10); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs <- func() error {
				c, err := net.Dial("tcp", s.HS().ReadAddr().String())
				if err != nil {
					return err
				}
				defer c.Close()
				r := bufio.NewReader(c)
				fmt.Fprintf(c, "P\t1\tda\tt\tPRIMARY\tk,v\n")
				if l, _ := r.ReadString('\n'); l != "0\t1\n" {
					return fmt.Errorf("open: %q", l)
				}
				for i := 0; ; i++ {
					select {
					case <-stop:
						return nil
					default:
					}
					k := 1 + (i*7+w)%20
					c.SetDeadline(time.Now().Add(10 * time.Second))
					fmt.Fprintf(c, "1\t=\t1\t%d\n", k)
					l, err := r.ReadString('\n')
					if err != nil {
						return err
					}
					if want := fmt.Sprintf("0\t2\t%d\t%d\n", k, k*10); l != want {
						return fmt.Errorf("find %d during ALTER: %q, want %q", k, l, want)
					}
				}
			}()
		}(w)
	}
	for i := 0; i < 15; i++ {
		col := fmt.Sprintf("c%d", i)
		if _, err := db.Exec("ALTER TABLE t ADD COLUMN " + col + " INT"); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil && !strings.Contains(err.Error(), "closed") {
			t.Error(err)
		}
	}
}
