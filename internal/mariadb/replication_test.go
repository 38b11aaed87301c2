package mariadb

import (
	"fmt"
	"strings"
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
		got, ok := ReplicationRewrite(c.in)
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
		if got, ok := ReplicationRewrite(q); ok {
			t.Errorf("%q rewritten to %q", q, got)
		}
	}
}

// TestReplicationFilterParse: CHANGE REPLICATION FILTER with every
// option MySQL has, read into the statement node go-mysql-server's
// parser would build; its syntax errors and refusals.
func TestReplicationFilterParse(t *testing.T) {
	show := func(st *ast.ChangeReplicationFilter) string {
		var parts []string
		for _, o := range st.Options {
			var names []string
			for _, n := range o.Value.(ast.TableNames) {
				s := n.Name.String()
				if q := n.DbQualifier.String(); q != "" {
					s = q + "|" + s
				}
				names = append(names, s)
			}
			parts = append(parts, o.Name+"="+strings.Join(names, ","))
		}
		return strings.Join(parts, " ")
	}
	for _, c := range []struct{ in, want string }{
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (d1, `d 2`)", "REPLICATE_DO_DB=d1,d 2"},
		{"change replication filter replicate_ignore_db=(d1)", "REPLICATE_IGNORE_DB=d1"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_TABLE = (d.t1, `d`.`order`, d.select)", "REPLICATE_DO_TABLE=d|t1,d|order,d|select"},
		{"CHANGE REPLICATION FILTER REPLICATE_IGNORE_TABLE = (d.t)", "REPLICATE_IGNORE_TABLE=d|t"},
		{`CHANGE REPLICATION FILTER REPLICATE_WILD_DO_TABLE = ('db%.t_', 'a\_b.%', "x\\y.z", 'it''s.t')`, `REPLICATE_WILD_DO_TABLE=db%.t_,a\_b.%,x\y.z,it's.t`},
		{"CHANGE REPLICATION FILTER REPLICATE_WILD_IGNORE_TABLE = ('%.tmp%')", "REPLICATE_WILD_IGNORE_TABLE=%.tmp%"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (), REPLICATE_IGNORE_TABLE = ( )", "REPLICATE_DO_DB= REPLICATE_IGNORE_TABLE="},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a), REPLICATE_WILD_DO_TABLE = ('a.%'), REPLICATE_DO_DB = (b) FOR CHANNEL '';",
			"REPLICATE_DO_DB=a REPLICATE_WILD_DO_TABLE=a.% REPLICATE_DO_DB=b"},
		{"/* c */ CHANGE /* c */ REPLICATION FILTER REPLICATE_DO_DB = (a /* c */)", "REPLICATE_DO_DB=a"},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((a, b), (`c d`, e))", "REPLICATE_REWRITE_DB=a|b,c d|e"},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ()", "REPLICATE_REWRITE_DB="},
	} {
		st, end, ok, err := ReplicationFilter(c.in, false)
		if !ok || err != nil {
			t.Errorf("%q: ok %v, %v", c.in, ok, err)
			continue
		}
		if got := show(st); got != c.want || end != len(c.in) {
			t.Errorf("%q: %q (end %d), want %q (end %d)", c.in, got, end, c.want, len(c.in))
		}
		if st.Auth.AuthType != ast.AuthType_REPLICATION {
			t.Errorf("%q: authorized as %v", c.in, st.Auth.AuthType)
		}
	}

	// Several statements: the first ends after its semicolon.
	q := "CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a); SELECT ';'"
	if st, parsed, rest, ok, err := ReplicationFilterParse(q, ';', true); !ok || err != nil || st == nil || parsed != "CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a)" || rest != " SELECT ';'" {
		t.Errorf("multi: %v %q %q %v %v", st, parsed, rest, ok, err)
	}
	if _, _, ok, err := ReplicationFilter(q, false); !ok || err == nil {
		t.Errorf("two statements without multi: ok %v, %v", ok, err)
	}

	for _, c := range []struct{ in, want string }{
		{"CHANGE REPLICATION FILTER", "syntax error at position 26"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DBS = (a)", "syntax error at position 43 near 'REPLICATE_DO_DBS'"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_TABLE = (t)", "syntax error at position 51 near ')'"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a.b)", "syntax error at position 48 near '.'"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = ('a')", "syntax error at position 49 near ''a''"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a,)", "syntax error at position 49 near ')'"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = a", "syntax error at position 46 near 'a'"},
		{"CHANGE REPLICATION FILTER REPLICATE_WILD_DO_TABLE = (db.t)", "syntax error at position 56 near 'db'"},
		{"CHANGE REPLICATION FILTER REPLICATE_WILD_DO_TABLE = ('nodot')", "syntax error at position 61 near ''nodot''"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a) junk", "syntax error at position 53 near 'junk'"},
		{"CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a) FOR CHANNEL 'x'", "Replica channel 'x' does not exist."},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = (a, b)", "syntax error at position 52 near 'a'"},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((a))", "syntax error at position 54 near ')'"},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((a, b, c))", "syntax error at position 57 near ','"},
		{"CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((a, 'b'))", "syntax error at position 58 near ''b''"},
	} {
		_, _, ok, err := ReplicationFilter(c.in, false)
		if !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: ok %v, %v; want %q", c.in, ok, err, c.want)
		}
	}
	for _, q := range []string{"CHANGE REPLICATION SOURCE TO SOURCE_HOST='h'", "SELECT 1", "CHANGE MASTER TO MASTER_HOST='h'", "CHANGE REPLICATION"} {
		if _, _, ok, _ := ReplicationFilter(q, false); ok {
			t.Errorf("%q taken as CHANGE REPLICATION FILTER", q)
		}
	}
}

// TestReplicationSourceParse: CHANGE REPLICATION SOURCE TO and CHANGE
// MASTER TO with binlog coordinates are read into go-mysql-server's
// node, MASTER_ names spelled SOURCE_; statements without coordinates
// are left to go-mysql-server's parser.
func TestReplicationSourceParse(t *testing.T) {
	show := func(st *ast.ChangeReplicationSource) string {
		var parts []string
		for _, o := range st.Options {
			parts = append(parts, fmt.Sprintf("%s=%#v", o.Name, o.Value))
		}
		return strings.Join(parts, " ")
	}
	for _, c := range []struct{ in, want string }{
		{"CHANGE MASTER TO MASTER_HOST='h', master_port=3307, MASTER_LOG_FILE='mariadb-bin.000002', MASTER_LOG_POS=1234",
			`SOURCE_HOST="h" SOURCE_PORT=3307 SOURCE_LOG_FILE="mariadb-bin.000002" SOURCE_LOG_POS=1234`},
		{"change replication source to SOURCE_LOG_FILE = 'b''in.1', SOURCE_LOG_POS = 4, SOURCE_AUTO_POSITION = 0 FOR CHANNEL '';",
			`SOURCE_LOG_FILE="b'in.1" SOURCE_LOG_POS=4 SOURCE_AUTO_POSITION=0`},
		{"CHANGE MASTER TO /* c */ MASTER_LOG_POS=9, MASTER_USE_GTID=no", `SOURCE_LOG_POS=9 SOURCE_AUTO_POSITION=0`},
	} {
		st, end, ok, err := ReplicationSource(c.in, false)
		if !ok || err != nil || end != len(c.in) {
			t.Errorf("%q: ok %v end %d, %v", c.in, ok, end, err)
			continue
		}
		if got := show(st); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
		if st.Auth.AuthType != ast.AuthType_REPLICATION {
			t.Errorf("%q: auth %v", c.in, st.Auth)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"CHANGE MASTER TO MASTER_LOG_POS='4'", "syntax error"},
		{"CHANGE MASTER TO MASTER_LOG_FILE=4", "syntax error"},
		{"CHANGE MASTER TO MASTER_LOG_FILE='f', MASTER_SSL_CA='x'", "syntax error"},
		{"CHANGE MASTER TO MASTER_LOG_FILE='f' junk", "syntax error"},
		{"CHANGE MASTER TO MASTER_LOG_FILE='f' FOR CHANNEL 'x'", "Replica channel 'x' does not exist."},
	} {
		if _, _, ok, err := ReplicationSource(c.in, false); !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: ok %v, %v; want %q", c.in, ok, err, c.want)
		}
	}
	for _, q := range []string{"CHANGE MASTER TO MASTER_HOST='h'", "CHANGE REPLICATION SOURCE TO SOURCE_HOST='x_LOG_FILE'", "SELECT 1 AS MASTER_LOG_POS", "CHANGE REPLICATION FILTER REPLICATE_DO_DB = (a)"} {
		if _, _, ok, _ := ReplicationSource(q, false); ok {
			t.Errorf("%q taken as CHANGE REPLICATION SOURCE with coordinates", q)
		}
	}
	if st, _, ok, err := ReplicationStatement("CHANGE MASTER TO MASTER_LOG_POS=5", false); !ok || err != nil || st == nil {
		t.Errorf("replicationStatement: %v %v %v", st, ok, err)
	}
}
