package replica_test

import (
	gosql "database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestReplicationPrivilege: an account without replication
// administration running the replication statements, in every spelling,
// gets MySQL's 1227 over the wire (not 1105), and nothing changes; with
// REPLICATION_SLAVE_ADMIN granted it may.
func TestReplicationPrivilege(t *testing.T) {
	s := startReplica(t, "", nil)
	root := sqlOf(t, s)
	for _, q := range []string{"CREATE USER big_norepl@'%' IDENTIFIED BY 'pw'", "CREATE USER big_repl@'%' IDENTIFIED BY 'pw'", "GRANT REPLICATION_SLAVE_ADMIN ON *.* TO big_repl@'%'"} {
		if _, err := root.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	open := func(user string) *gosql.DB {
		db, err := gosql.Open("mysql", fmt.Sprintf("%s:pw@tcp(%s)/?timeout=5s", user, s.SQLAddr()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	udb := open("big_norepl")
	const msg = "Access denied; you need (at least one of) the SUPER or REPLICATION_SLAVE_ADMIN privilege(s) for this operation"
	for _, q := range []string{
		"CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=1",
		"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=1",
		"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_LOG_FILE='b.000001', MASTER_LOG_POS=4",
		"CHANGE REPLICATION SOURCE TO SOURCE_LOG_FILE='b.000001', SOURCE_LOG_POS=4",
		"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a)",
		"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((a, b))",
		"START REPLICA",
		"START SLAVE",
		"STOP REPLICA",
		"STOP SLAVE",
	} {
		_, err := udb.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1227 || me.Message != msg || string(me.SQLState[:]) != "42000" {
			t.Errorf("%s: %v, want 1227 (42000) %q", q, err, msg)
		}
	}
	if st := replicaStatus(t, root); st != nil {
		t.Errorf("a refused statement configured a source: %v", st)
	}
	rdb := open("big_repl")
	if _, err := rdb.Exec("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=1, SOURCE_LOG_FILE='b.000001', SOURCE_LOG_POS=4"); err != nil {
		t.Fatalf("with REPLICATION_SLAVE_ADMIN: %v", err)
	}
	if st := replicaStatus(t, root); st["Source_Host"] != "127.0.0.1" || st["Source_Log_File"] != "b.000001" {
		t.Errorf("after CHANGE REPLICATION SOURCE: %v", st)
	}
}
