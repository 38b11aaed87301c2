package mariadb

import "testing"

// TestExecutableComments checks which comments run, that the text keeps
// its length, and that strings and plain comments are not touched.
func TestExecutableComments(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"SELECT 1", "SELECT 1"},
		{"/*!40101 SET x=1 */", "         SET x=1   "},
		{"/*!50705 SET x=1 */", "/*       SET x=1 */"},
		{"/*!80000 SET x=1 */", "/*       SET x=1 */"},
		{"/*!100100 SET x=1 */", "          SET x=1   "},
		{"/*!110000 SET x=1 */", "/*        SET x=1 */"},
		{"/*M!100100 SET x=1 */", "           SET x=1   "},
		{"/*M!50701 SET x=1 */", "          SET x=1   "},
		{"/*! SET x=1 */", "    SET x=1   "},
		{"SELECT '/*!50705 a */', `/*!1 b*/`, \"it\\\"s /*!1 c */\" /* /*!1 */", "SELECT '/*!50705 a */', `/*!1 b*/`, \"it\\\"s /*!1 c */\" /* /*!1 */"},
		{"SELECT 1 -- /*!1 + 2 */\n + 3", "SELECT 1 -- /*!1 + 2 */\n + 3"},
		{"SELECT 1 /*!50705 + 1 */ /*!100100 + 10 */ /*M!100100 + 100 */ /*!40000 + 1000 */", "SELECT 1 /*       + 1 */           + 10               + 100             + 1000   "},
		{"/*!50705 unterminated", "/*       unterminated"},
	} {
		got, changed := ExecutableComments(c.in)
		if got != c.out || len(got) != len(c.in) || changed != (c.in != c.out) {
			t.Errorf("%q: got %q (changed %v), want %q", c.in, got, changed, c.out)
		}
	}
}
