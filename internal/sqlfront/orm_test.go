package sqlfront

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The frameworks' own view of the server: an SQLAlchemy 1.4 ORM scenario
// (testdata/orm/sqlalchemy_scenario.py: MariaDB detection, relationships
// through the ids inserts answer, rollback, savepoints, LIKE, duplicate
// keys, JSON, IN and EXISTS subqueries, UPDATE/DELETE with EXISTS) with
// PyMySQL and with mysqlclient. Every step passes on MariaDB 10.11 (the
// anchor: HANDLERDB_ORM_ANCHOR=127.0.0.1:13306 runs the scenario there
// too). Django's own suite runs from scripts/django-suite.sh (.ci/run).

// ormPython is Debian's python3, which has the packages the scenarios
// need (python3-sqlalchemy, python3-pymysql, python3-mysqldb); "" when a
// module is missing.
func ormPython(t *testing.T) string {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import sqlalchemy, pymysql, MySQLdb").Run(); err != nil {
		return ""
	}
	return py
}

func TestSQLAlchemyScenario(t *testing.T) {
	py := ormPython(t)
	if py == "" {
		t.Skip("needs Debian's python3-sqlalchemy, python3-pymysql and python3-mysqldb (.ci/run installs them)")
	}
	ts := startTestServer(t, "", Config{})
	addrs := map[string]string{"handlerdb": ts.s.Addr().String()}
	if a := os.Getenv("HANDLERDB_ORM_ANCHOR"); a != "" {
		addrs["mariadb"] = a
	}
	for server, addr := range addrs {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatal(err)
		}
		for _, driver := range []string{"pymysql", "mysqldb"} {
			cmd := exec.Command(py, "../../testdata/orm/sqlalchemy_scenario.py", host, port, driver)
			cmd.Env = append(os.Environ(), "SQLALCHEMY_SILENCE_UBER_WARNING=1")
			out, err := cmd.CombinedOutput()
			oks := strings.Count(string(out), "\nok ") + map[bool]int{true: 1}[strings.HasPrefix(string(out), "ok ")]
			if err != nil || oks != 9 {
				t.Errorf("%s, %s: %v, %d steps ok of 9:\n%s", server, driver, err, oks, out)
			}
		}
	}
}
