package main

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// opKind is one kind of benchmark request.
type opKind uint8

const (
	opGet opKind = iota
	opInsert
	opUpdate
	opDelete
	opRange
)

// op is one request of a batch.
type op struct {
	kind opKind
	id   int64
}

// target is a server under test, reached through one protocol.
type target interface {
	// kind is hs, mysql, mysql-text or memcached.
	kind() string
	// open returns one connection, for one worker.
	open(ctx context.Context) (targetConn, error)
	// maxID returns the highest id of the table (0 when unknown or empty).
	maxID(ctx context.Context) (int64, error)
	// wireBytes returns the bytes sent and received so far.
	wireBytes() int64
	close() error
}

// targetConn runs batches of requests on one connection.
type targetConn interface {
	// do runs ops (one round trip when the protocol pipelines) and returns
	// how many failed.
	do(ctx context.Context, ops []op) (failed int)
	close() error
}

// openTarget connects to a target given as kind or kind=DSN.
func openTarget(ctx context.Context, o *options, spec string) (target, error) {
	kind, dsn, err := splitTarget(spec)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "hs":
		if dsn == "" {
			dsn = o.hsDSN
		}
		return openHS(o, dsn)
	case "mysql", "mysql-text":
		if dsn == "" {
			dsn = o.mysqlDSN
		}
		if dsn == "" {
			return nil, fmt.Errorf("target %s needs --mysql", kind)
		}
		if o.pipeline > 1 {
			return nil, fmt.Errorf("target %s does not pipeline: use --pipeline 1", kind)
		}
		return openMySQL(ctx, o, dsn, kind == "mysql")
	default:
		if dsn == "" {
			dsn = o.mcAddr
		}
		if o.workload == "range" {
			return nil, fmt.Errorf("memcached has no range scans")
		}
		return &mcTarget{o: o, addr: dsn}, nil
	}
}

// rowValues are the values of row id.
type rowValues struct{ name, email, created string }

func makeRow(id int64, valueSize int, generation int64) rowValues {
	email := "user" + strconv.FormatInt(id, 10) + "." + strconv.FormatInt(generation, 36) + "@example.com"
	if valueSize > 255 {
		valueSize = 255
	}
	if len(email) > valueSize {
		email = email[:valueSize]
	} else if len(email) < valueSize {
		email += strings.Repeat("x", valueSize-len(email))
	}
	created := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Second).Format(time.DateTime)
	return rowValues{name: "name-" + strconv.FormatInt(id, 10), email: email, created: created}
}

// countingConn counts the bytes of a net.Conn into n.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(b []byte) (int, error) {
	k, err := c.Conn.Read(b)
	c.n.Add(int64(k))
	return k, err
}

func (c countingConn) Write(b []byte) (int, error) {
	k, err := c.Conn.Write(b)
	c.n.Add(int64(k))
	return k, err
}
