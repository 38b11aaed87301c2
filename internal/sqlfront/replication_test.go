package sqlfront

import (
	"testing"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// TestReplicationRewrite: the older replication statements are given to
// the parser in the current spelling and parse as those statements.
func TestReplicationRewrite(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"START SLAVE", "START REPLICA"},
		{"stop slave;", "stop REPLICA;"},
		{"RESET SLAVE ALL", "RESET REPLICA ALL"},
		{"CHANGE MASTER TO MASTER_HOST='h', master_port=3307, MASTER_USER = 'u', MASTER_PASSWORD='p', MASTER_CONNECT_RETRY=1",
			"CHANGE REPLICATION SOURCE TO SOURCE_HOST='h', SOURCE_port=3307, SOURCE_USER = 'u', SOURCE_PASSWORD='p', SOURCE_CONNECT_RETRY=1"},
		{"CHANGE MASTER TO MASTER_HOST='MASTER_X=1', MASTER_USE_GTID=slave_pos", "CHANGE REPLICATION SOURCE TO SOURCE_HOST='MASTER_X=1', SOURCE_AUTO_POSITION = 1"},
		{"CHANGE MASTER TO MASTER_USE_GTID = no", "CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION = 0"},
	} {
		got, ok := replicationRewrite(c.in)
		if !ok || got != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, got, ok, c.want)
			continue
		}
		st, err := ast.Parse(got)
		if err != nil {
			t.Errorf("%q: %v", got, err)
			continue
		}
		switch st.(type) {
		case *ast.StartReplica, *ast.StopReplica, *ast.ResetReplica, *ast.ChangeReplicationSource:
		default:
			t.Errorf("%q parses as %T", got, st)
		}
	}
	for _, q := range []string{"START TRANSACTION", "SELECT 'START SLAVE'", "CHANGE MASTER 'x' TO MASTER_HOST='h'"} {
		if got, ok := replicationRewrite(q); ok {
			t.Errorf("%q rewritten to %q", q, got)
		}
	}
}
