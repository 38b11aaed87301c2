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
