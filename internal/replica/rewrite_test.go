package replica_test

import (
	"testing"
	"time"
)

// TestRewriteDB: CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB against
// the MariaDB primary, with MySQL's semantics: the initial copy and the
// stream's rows of big_rw_src land in big_rw_dst; DDL run in big_rw_src
// as default database runs in big_rw_dst; the database rules see the
// rewritten name (REPLICATE_IGNORE_DB=(big_rw_src) no longer matches
// the renamed rows, big_rw_other is ignored); SHOW REPLICA STATUS shows
// the pairs; an empty list clears them.
func TestRewriteDB(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS big_rw_src", "DROP DATABASE IF EXISTS big_rw_other",
		"CREATE DATABASE big_rw_src", "CREATE DATABASE big_rw_other",
		"CREATE TABLE big_rw_src.t (id INT PRIMARY KEY, v VARCHAR(10), KEY v (v))",
		"CREATE TABLE big_rw_other.t (id INT PRIMARY KEY)",
		"INSERT INTO big_rw_src.t VALUES (1, 'a'), (2, 'b')", "INSERT INTO big_rw_other.t VALUES (1)")
	s := startReplica(t, "", nil)
	db := sqlOf(t, s)
	follow(t, db, p, "CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((big_rw_src, big_rw_dst), (big_rw_src, big_rw_second)), REPLICATE_IGNORE_DB = (big_rw_src, big_rw_other)")
	catchUp(t, db, p, 30*time.Second)
	sameRows(t, "big_rw_dst.t (copied)", dump(t, p.Root, "big_rw_src.t", "id"), dump(t, db, "big_rw_dst.t", "id"))

	p.exec(t, "INSERT INTO big_rw_src.t VALUES (3, 'c')", "UPDATE big_rw_src.t SET v = 'B' WHERE id = 2", "DELETE FROM big_rw_src.t WHERE id = 1",
		"INSERT INTO big_rw_other.t VALUES (2)")
	p.execIn(t, "big_rw_src", "CREATE TABLE t2 (id INT PRIMARY KEY, n INT)", "INSERT INTO t2 VALUES (1, 10), (2, 20)",
		"ALTER TABLE t ADD COLUMN w INT", "UPDATE t SET w = id * 2")
	p.execIn(t, "big_rw_other", "CREATE TABLE t2 (id INT PRIMARY KEY)")
	catchUp(t, db, p, 30*time.Second)
	sameRows(t, "big_rw_dst.t", dump(t, p.Root, "big_rw_src.t", "id"), dump(t, db, "big_rw_dst.t", "id"))
	sameRows(t, "big_rw_dst.t2", dump(t, p.Root, "big_rw_src.t2", "id"), dump(t, db, "big_rw_dst.t2", "id"))
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('big_rw_src', 'big_rw_other', 'big_rw_second')").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d of big_rw_src, big_rw_other, big_rw_second on the replica (%v), want none", n, err)
	}
	if st := replicaStatus(t, db); st["Replicate_Rewrite_DB"] != "(big_rw_src,big_rw_dst),(big_rw_src,big_rw_second)" || st["Replicate_Ignore_DB"] != "big_rw_src,big_rw_other" {
		t.Errorf("Replicate_Rewrite_DB %q, Replicate_Ignore_DB %q", st["Replicate_Rewrite_DB"], st["Replicate_Ignore_DB"])
	}

	for _, q := range []string{"STOP REPLICA", "CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ()"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if st := replicaStatus(t, db); st["Replicate_Rewrite_DB"] != "" || st["Replicate_Ignore_DB"] != "big_rw_src,big_rw_other" {
		t.Errorf("after clearing: Replicate_Rewrite_DB %q, Replicate_Ignore_DB %q", st["Replicate_Rewrite_DB"], st["Replicate_Ignore_DB"])
	}
	p.exec(t, "DROP DATABASE big_rw_src", "DROP DATABASE big_rw_other")
}
