package mariadb

import "testing"

// TestMayCreateViewPattern: the statements that keep their CREATE VIEW
// check, mariadb-dump's executable comments and leading comments included,
// and those that read views without it.
func TestMayCreateViewPattern(t *testing.T) {
	for q, want := range map[string]bool{
		"CREATE VIEW v AS SELECT 1": true,
		"/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=`a`@`b` */ /*!50001 VIEW v AS SELECT 1 */": true,
		"/*M!100100 CREATE VIEW v AS SELECT 1 */":                                                           true,
		"/* note */ CREATE VIEW v AS SELECT 1":                                                              true,
		"/*My note*/ ALTER VIEW v AS SELECT 1":                                                              true,
		"-- x\nEXECUTE s":                                                                                   true,
		"SELECT * FROM v":                                                                                   false,
		"/* CREATE */ SELECT 1":                                                                             false,
		"SHOW CREATE VIEW v":                                                                                false,
	} {
		if got := mayCreateView.MatchString(q); got != want {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}
