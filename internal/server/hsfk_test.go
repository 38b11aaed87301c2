package server

import (
	"strconv"
	"strings"
	"testing"
)

// HandlerSocket writes keep SQL's foreign keys as the plugin over InnoDB
// does: the replies below are those MariaDB 10.11's HandlerSocket plugin
// gave for the same schema and requests (1 1 151 for a child row without
// its parent, 1 1 152 for a parent row that RESTRICT children reference),
// and the cascades leave the rows it left. A table without foreign keys
// takes any value.
func TestHSForeignKeys(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "fkhs")
	execAll(t, db,
		"CREATE TABLE parent (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE c_cascade (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
		"CREATE TABLE c_null (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES parent (id) ON DELETE SET NULL ON UPDATE SET NULL)",
		"CREATE TABLE c_restrict (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES parent (id))",
		"CREATE TABLE tree (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES tree (id) ON DELETE CASCADE)",
		"CREATE TABLE plain (id INT PRIMARY KEY, p INT)",
		"INSERT INTO parent VALUES (1, 0), (2, 0), (3, 0), (4, 0)",
		"INSERT INTO c_cascade VALUES (1, 1), (2, 2)",
		"INSERT INTO c_null VALUES (1, 1), (2, 3)",
		"INSERT INTO c_restrict VALUES (1, 4)",
	)
	hsSteps(t, s.HS().WriteAddr(), []hsStep{
		{"P\t0\tfkhs\tparent\tPRIMARY\tid,v", "0\t1"},
		{"P\t1\tfkhs\tc_cascade\tPRIMARY\tid,p", "0\t1"},
		{"P\t2\tfkhs\tc_null\tPRIMARY\tid,p", "0\t1"},
		{"P\t3\tfkhs\tc_restrict\tPRIMARY\tid,p", "0\t1"},
		{"P\t4\tfkhs\ttree\tPRIMARY\tid,up", "0\t1"},
		{"P\t5\tfkhs\tplain\tPRIMARY\tid,p", "0\t1"},
		{"1\t=\t1\t1\t1\t0\tU\t1\t98", "1\t1\t151"},
		{"1\t=\t1\t1\t1\t0\tU\t1\t2", "0\t1\t1"},
		{"0\t=\t1\t2\t1\t0\tU\t20\t0", "0\t1\t1"},
		{"0\t=\t1\t3\t1\t0\tU\t30\t0", "0\t1\t1"},
		{"0\t=\t1\t4\t1\t0\tU\t40\t0", "1\t1\t152"},
		{"0\t=\t1\t1\t1\t0\tD", "0\t1\t1"},
		{"0\t=\t1\t4\t1\t0\tU\t4\t7", "0\t1\t1"},
		{"2\t+\t2\t3\t\x00", "0\t1"},
		{"3\t+\t2\t2\t\x00", "0\t1"},
		{"4\t+\t2\t1\t\x00", "0\t1"},
		{"4\t+\t2\t2\t1", "0\t1"},
		{"4\t+\t2\t3\t3", "0\t1"},
		{"4\t+\t2\t4\t9", "1\t1\t151"},
		{"4\t=\t1\t1\t1\t0\tD", "0\t1\t1"},
		{"0\t>\t1\t0\t10\t0\tD", "1\t1\t152"},
		{"5\t+\t2\t1\t99", "0\t1"},
	})
	for q, want := range map[string]string{
		"SELECT id, v FROM parent ORDER BY id":     "4:7 20:0 30:0",
		"SELECT id, p FROM c_cascade ORDER BY id":  "1:20 2:20",
		"SELECT id, p FROM c_null ORDER BY id":     "1:NULL 2:NULL 3:NULL",
		"SELECT id, p FROM c_restrict ORDER BY id": "1:4 2:NULL",
		"SELECT id, up FROM tree ORDER BY id":      "3:3",
		"SELECT id, p FROM plain ORDER BY id":      "1:99",
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			var id int
			var v *int
			if err := rows.Scan(&id, &v); err != nil {
				t.Fatal(err)
			}
			s := "NULL"
			if v != nil {
				s = strconv.Itoa(*v)
			}
			out = append(out, strconv.Itoa(id)+":"+s)
		}
		rows.Close()
		if g := strings.Join(out, " "); g != want {
			t.Errorf("%s: %s, want %s", q, g, want)
		}
	}
}
