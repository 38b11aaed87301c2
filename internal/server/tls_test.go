package server

import (
	"database/sql"
	"fmt"

	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"github.com/go-sql-driver/mysql"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
)

// testCert writes a self-signed certificate for 127.0.0.1 and returns the
// cert and key paths and a pool that trusts it.
func testCert(t *testing.T) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "handlerdb test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	kb, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return certPath, keyPath, pool
}

func hsOverTLS(t *testing.T, addr net.Addr, pool *x509.CertPool, req string, want ...string) {
	t.Helper()
	c, err := tls.Dial("tcp", addr.String(), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range exchange(t, c, req, len(want)) {
		if l != want[i] {
			t.Fatalf("%q over TLS: reply %d is %q, want %q", req, i, l, want[i])
		}
	}
}

// TestTLS: with a certificate, the MySQL port negotiates TLS and both
// HandlerSocket ports serve TLS connections; unless TLS is required,
// plain connections are served too, and with it they are refused.
func TestTLS(t *testing.T) {
	certPath, keyPath, pool := testCert(t)
	for _, required := range []bool{false, true} {
		s := startTest(t, func(c *config.Config) {
			c.TLSCert, c.TLSKey, c.TLSRequired = certPath, keyPath, required
		})
		// Set-up over the MySQL port, over TLS (as MySQL clients negotiate it).
		name := fmt.Sprintf("hdbtest%v", required)
		if err := mysql.RegisterTLSConfig(name, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}); err != nil {
			t.Fatal(err)
		}
		tdb, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?tls=%s", s.SQLAddr(), name))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"CREATE DATABASE tl", "CREATE TABLE tl.t (id INT PRIMARY KEY, v VARCHAR(10))"} {
			if _, err := tdb.Exec(q); err != nil {
				t.Fatalf("%s over TLS: %v", q, err)
			}
		}
		hsOverTLS(t, s.HS().WriteAddr(), pool, "P\t1\ttl\tt\tPRIMARY\tid,v\n1\t+\t2\t1\tone\n", "0\t1\n", "0\t1\n")
		hsOverTLS(t, s.HS().ReadAddr(), pool, "P\t1\ttl\tt\tPRIMARY\tid,v\n1\t=\t1\t1\n", "0\t1\n", "0\t2\t1\tone\n")
		c, err := net.Dial("tcp", s.HS().ReadAddr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(time.Second))
		c.Write([]byte("P\t1\ttl\tt\tPRIMARY\tid\n"))
		got, _ := io.ReadAll(c)
		c.Close()
		if required && len(got) != 0 {
			t.Fatalf("plain connection answered %q with TLS required", got)
		}
		// (Plain and allowed, the connection stays open: the deadline
		// ends the read after the answer.)
		if !required && string(got) != "0\t1\n" {
			t.Fatalf("plain connection: %q", got)
		}

		// The row the TLS HandlerSocket insert wrote, read over TLS SQL.
		var one int
		if err := tdb.QueryRow("SELECT COUNT(*) FROM tl.t").Scan(&one); err != nil || one != 1 {
			t.Fatalf("query over TLS: %v %d", err, one)
		}
		// The session's cipher, as MariaDB's Ssl_cipher status shows it.
		var variable, cipher string
		if err := tdb.QueryRow("SHOW STATUS LIKE 'Ssl_cipher'").Scan(&variable, &cipher); err != nil || cipher == "" {
			t.Fatalf("Ssl_cipher over TLS: %v %q", err, cipher)
		}
		tdb.Close()
		pdb, _ := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/tl?tls=false", s.SQLAddr()))
		err = pdb.Ping()
		pdb.Close()
		if required && err == nil {
			t.Fatal("plain MySQL connection accepted with TLS required")
		}
		if !required && err != nil {
			t.Fatalf("plain MySQL connection: %v", err)
		}
	}
}

// TestReplicaOverTLS: a HandlerDB replica follows a primary that refuses
// plain connections (--tls-required) over TLS with MASTER_SSL=1, its
// initial copy and its binary log stream both; without MASTER_SSL it
// cannot connect (an IO error, no rows).
func TestReplicaOverTLS(t *testing.T) {
	certPath, keyPath, pool := testCert(t)
	primary := startTest(t, func(c *config.Config) {
		c.TLSCert, c.TLSKey, c.TLSRequired = certPath, keyPath, true
		c.LogBin, c.ServerID = true, 1
	})
	if err := mysql.RegisterTLSConfig("hdbreplica", &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	pdb, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?tls=hdbreplica", primary.SQLAddr()))
	if err != nil {
		t.Fatal(err)
	}
	defer pdb.Close()
	execAll(t, pdb, "CREATE DATABASE rt", "CREATE TABLE rt.t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO rt.t VALUES (1, 'copied')")
	host, port, _ := net.SplitHostPort(primary.SQLAddr().String())
	change := fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port)

	plain := startTest(t, func(c *config.Config) { c.ServerID = 2 })
	ldb := sqlDB(t, plain, "mysql")
	execAll(t, ldb, change, "START SLAVE")
	var errno string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && (errno == "" || errno == "0"); time.Sleep(50 * time.Millisecond) {
		errno = ioErrnoOf(t, ldb)
	}
	var n int
	_ = ldb.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'rt'").Scan(&n)
	if errno == "" || errno == "0" || n != 0 {
		t.Fatalf("a plain replica of a TLS-only primary: Last_IO_Errno %q, %d tables copied", errno, n)
	}
	execAll(t, ldb, "STOP SLAVE")

	replica := startTest(t, func(c *config.Config) { c.ServerID = 3 })
	rdb := sqlDB(t, replica, "mysql")
	execAll(t, rdb, change+", MASTER_SSL=1", "START SLAVE")
	execAll(t, pdb, "INSERT INTO rt.t VALUES (2, 'streamed')")
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && got != "1 copied,2 streamed"; time.Sleep(50 * time.Millisecond) {
		_ = rdb.QueryRow("SELECT GROUP_CONCAT(CONCAT(id, ' ', v) ORDER BY id) FROM rt.t").Scan(&got)
	}
	if got != "1 copied,2 streamed" {
		t.Fatalf("the replica over TLS has %q (Last_IO_Errno %s)", got, ioErrnoOf(t, rdb))
	}
}

// slaveStatus reads a replica's SHOW SLAVE STATUS as column -> value
// (empty when it has no source).
func slaveStatus(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	rs, err := db.Query("SHOW SLAVE STATUS")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	out := map[string]string{}
	for rs.Next() {
		vals, err := rowStrings(rs, len(cols))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cols {
			out[c] = vals[i].String
		}
	}
	return out
}

// ioErrnoOf is a replica's Last_IO_Errno.
func ioErrnoOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	return slaveStatus(t, db)["Last_IO_Errno"]
}
