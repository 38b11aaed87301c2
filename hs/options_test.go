package hs_test

import (
	"context"
	"errors"
	"net"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/hs"
)

// TestEnsureDefaults: every zero field gets the default its doc comment
// names, and a field already set (negative included) keeps its value.
func TestEnsureDefaults(t *testing.T) {
	for _, procs := range []int{1, 8} { // below and above the floor of 4
		prev := runtime.GOMAXPROCS(procs)
		pool := max(2*procs, 4)
		cases := []struct {
			name     string
			in, want hs.Options
		}{
			{
				name: "zero",
				in:   hs.Options{ReadAddr: "r:1"},
				want: hs.Options{ReadAddr: "r:1", ReadPoolSize: pool, WritePoolSize: pool,
					IdleTimeout: 4 * time.Minute, DialTimeout: 5 * time.Second,
					ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, DebugKeep: 1000},
			},
			{
				name: "set",
				in: hs.Options{WriteAddr: "w:1", ReadPoolSize: 3, WritePoolSize: 2, MaxIdle: 1,
					IdleTimeout: time.Second, DialTimeout: 2 * time.Second, ReadTimeout: 3 * time.Second,
					WriteTimeout: 4 * time.Second, DebugKeep: 5},
				want: hs.Options{WriteAddr: "w:1", ReadPoolSize: 3, WritePoolSize: 2, MaxIdle: 1,
					IdleTimeout: time.Second, DialTimeout: 2 * time.Second, ReadTimeout: 3 * time.Second,
					WriteTimeout: 4 * time.Second, DebugKeep: 5},
			},
			{
				name: "off",
				in: hs.Options{ReadAddr: "r:1", MaxIdle: -1, IdleTimeout: -1, DialTimeout: -1,
					ReadTimeout: -1, WriteTimeout: -1},
				want: hs.Options{ReadAddr: "r:1", ReadPoolSize: pool, WritePoolSize: pool, MaxIdle: -1,
					IdleTimeout: -1, DialTimeout: -1, ReadTimeout: -1, WriteTimeout: -1, DebugKeep: 1000},
			},
		}
		for _, tc := range cases {
			got := tc.in
			if p := got.EnsureDefaults(); p != &got {
				t.Errorf("GOMAXPROCS %d, %s: EnsureDefaults returned another *Options", procs, tc.name)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("GOMAXPROCS %d, %s:\n got %+v\nwant %+v", procs, tc.name, got, tc.want)
			}
			if again := *got.EnsureDefaults(); !reflect.DeepEqual(again, tc.want) {
				t.Errorf("GOMAXPROCS %d, %s: a second EnsureDefaults gave %+v", procs, tc.name, again)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("GOMAXPROCS %d, %s: %v", procs, tc.name, err)
			}
			c, err := hs.New(tc.in)
			if err != nil {
				t.Fatalf("GOMAXPROCS %d, %s: New: %v", procs, tc.name, err)
			}
			if o := c.Options(); !reflect.DeepEqual(o, tc.want) {
				t.Errorf("GOMAXPROCS %d, %s: Client.Options\n got %+v\nwant %+v", procs, tc.name, o, tc.want)
			}
			c.Close()
		}
		runtime.GOMAXPROCS(prev)
	}
}

// TestValidate: each invalid field is refused, by Validate and by New (and
// Open), with its name in the error; the first one in declaration order
// is the one reported.
func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		o    hs.Options
		want string // in the error; "" for valid options
	}{
		{"no address", hs.Options{}, "Options.ReadAddr and Options.WriteAddr"},
		{"read pool", hs.Options{ReadAddr: "r:1", ReadPoolSize: -1}, "Options.ReadPoolSize -1"},
		{"write pool", hs.Options{WriteAddr: "w:1", WritePoolSize: -2}, "Options.WritePoolSize -2"},
		{"nil hook", hs.Options{ReadAddr: "r:1", Hooks: []hs.Hook{nil}}, "Options.Hooks[0]"},
		{"debug keep", hs.Options{ReadAddr: "r:1", DebugKeep: -1}, "Options.DebugKeep -1"},
		{"first of two", hs.Options{ReadAddr: "r:1", WritePoolSize: -1, DebugKeep: -1}, "Options.WritePoolSize"},
		{"zero", hs.Options{ReadAddr: "r:1"}, ""},
		{"write only", hs.Options{WriteAddr: "w:1"}, ""},
		{"negative means off", hs.Options{ReadAddr: "r:1", MaxIdle: -1, IdleTimeout: -1, DialTimeout: -1, ReadTimeout: -1, WriteTimeout: -1}, ""},
	}
	for _, tc := range cases {
		o := tc.o
		errs := map[string]error{"Validate": o.Validate()}
		c, err := hs.New(tc.o)
		errs["New"] = err
		if c != nil {
			c.Close()
		}
		for by, err := range errs {
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %s: %v", tc.name, by, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s: %s: error %v, want one naming %q", tc.name, by, err, tc.want)
			}
		}
	}
	if err := (&hs.Options{}).Validate(); !errors.Is(err, hs.ErrNoAddr) {
		t.Errorf("no address: %v is not ErrNoAddr", err)
	}
	if _, err := hs.Open("hs://h?pool_size=-1"); err == nil || !strings.Contains(err.Error(), "Options.ReadPoolSize") {
		t.Errorf("Open with pool_size=-1: %v", err)
	}
}

// TestDialTimeout: 0 bounds a dial by the default 5 seconds, a negative
// DialTimeout by the context only.
func TestDialTimeout(t *testing.T) {
	errDial := errors.New("no dial")
	for _, tc := range []struct {
		timeout time.Duration
		limit   bool // whether the dial gets a deadline
	}{{0, true}, {time.Second, true}, {-1, false}} {
		var deadline time.Time
		var limited bool
		c, err := hs.New(hs.Options{ReadAddr: "r:1", DialTimeout: tc.timeout,
			Dialer: func(ctx context.Context, _, _ string) (net.Conn, error) {
				deadline, limited = ctx.Deadline()
				return nil, errDial
			}})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := c.Ping(context.Background()); !errors.Is(err, errDial) {
			t.Fatalf("DialTimeout %v: Ping: %v", tc.timeout, err)
		}
		end := time.Now()
		c.Close()
		if limited != tc.limit {
			t.Errorf("DialTimeout %v: dial deadline %v, want one: %v", tc.timeout, limited, tc.limit)
			continue
		}
		want := tc.timeout
		if want == 0 {
			want = 5 * time.Second
		}
		if limited && (deadline.Before(start.Add(want)) || deadline.After(end.Add(want))) {
			t.Errorf("DialTimeout %v: dial deadline %v after the Ping began, want %v", tc.timeout, deadline.Sub(start), want)
		}
	}
}
