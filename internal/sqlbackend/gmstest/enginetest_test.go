package gmstest

import (
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
	"github.com/dolthub/go-mysql-server/enginetest/queries"
	"github.com/dolthub/go-mysql-server/enginetest/scriptgen/setup"
)

// go-mysql-server's engine tests, run against HandlerDB's backend (the
// skip list is in skip_test.go). Not run: TestTruncate (two of its
// subtests create foreign keys, which a harness cannot skip; TRUNCATE is
// covered by sqlfront's own tests and DELETE by TestDelete); the last
// subtests of TestCreateTable, which compare a schema with
// go-mysql-server's default collation id (TestCreateTable below runs its
// query lists and scripts); the JSONTable*, Fulltext*, Events, LoadData
// and *Plans functions (features HandlerDB does not claim, or plans
// written for the memory backend's statistics), and some variants of the
// Spatial* ones (spatial_test.go runs the others).

var skips = newSkipList(skipRules)

func TestQueries(t *testing.T)        { enginetest.TestQueries(t, newHarness(t, skips)) }
func TestJoinQueries(t *testing.T)    { enginetest.TestJoinQueries(t, newHarness(t, skips)) }
func TestInsertInto(t *testing.T)     { enginetest.TestInsertInto(t, newHarness(t, skips)) }
func TestReplaceInto(t *testing.T)    { enginetest.TestReplaceInto(t, newHarness(t, skips)) }
func TestUpdate(t *testing.T)         { enginetest.TestUpdate(t, newHarness(t, skips)) }
func TestDelete(t *testing.T)         { enginetest.TestDelete(t, newHarness(t, skips)) }
func TestDropTable(t *testing.T)      { enginetest.TestDropTable(t, newHarness(t, skips)) }
func TestRenameTable(t *testing.T)    { enginetest.TestRenameTable(t, newHarness(t, skips)) }
func TestAddColumn(t *testing.T)      { enginetest.TestAddColumn(t, newHarness(t, skips)) }
func TestDropColumn(t *testing.T)     { enginetest.TestDropColumn(t, newHarness(t, skips)) }
func TestModifyColumn(t *testing.T)   { enginetest.TestModifyColumn(t, newHarness(t, skips)) }
func TestCreateDatabase(t *testing.T) { enginetest.TestCreateDatabase(t, newHarness(t, skips)) }
func TestDropDatabase(t *testing.T)   { enginetest.TestDropDatabase(t, newHarness(t, skips)) }

func TestCreateTable(t *testing.T) {
	h := newHarness(t, skips)
	h.Setup(setup.MydbData, setup.MytableData, setup.FooData)
	for _, tt := range queries.CreateTableQueries {
		t.Run(tt.WriteQuery, func(t *testing.T) {
			if h.SkipQueryTest(tt.WriteQuery) {
				t.Skip()
			}
			enginetest.RunWriteQueryTest(t, h, tt)
		})
	}
	for _, list := range [][]queries.ScriptTest{queries.CreateTableScriptTests, queries.CreateTableInSubroutineTests, queries.CreateTableAutoIncrementTests} {
		for _, script := range list {
			enginetest.TestScript(t, h, script)
		}
	}
}

func TestForeignKeys(t *testing.T) { enginetest.TestForeignKeys(t, newHarness(t, skips)) }
