package gmstest

import (
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
)

func TestQueryErrors(t *testing.T)       { enginetest.TestQueryErrors(t, newHarness(t, skips)) }
func TestQueriesPrepared(t *testing.T)   { enginetest.TestQueriesPrepared(t, newHarness(t, skips)) }
func TestOrderByGroupBy(t *testing.T)    { enginetest.TestOrderByGroupBy(t, newHarness(t, skips)) }
func TestColumnAliases(t *testing.T)     { enginetest.TestColumnAliases(t, newHarness(t, skips)) }
func TestInsertIgnoreInto(t *testing.T)  { enginetest.TestInsertIgnoreInto(t, newHarness(t, skips)) }
func TestInsertIntoErrors(t *testing.T)  { enginetest.TestInsertIntoErrors(t, newHarness(t, skips)) }
func TestReplaceIntoErrors(t *testing.T) { enginetest.TestReplaceIntoErrors(t, newHarness(t, skips)) }
func TestUpdateIgnore(t *testing.T)      { enginetest.TestUpdateIgnore(t, newHarness(t, skips)) }
func TestUpdateErrors(t *testing.T)      { enginetest.TestUpdateErrors(t, newHarness(t, skips)) }
func TestDeleteErrors(t *testing.T)      { enginetest.TestDeleteErrors(t, newHarness(t, skips)) }
func TestRenameColumn(t *testing.T)      { enginetest.TestRenameColumn(t, newHarness(t, skips)) }
func TestViews(t *testing.T)             { enginetest.TestViews(t, newHarness(t, skips)) }
func TestTriggers(t *testing.T)          { enginetest.TestTriggers(t, newHarness(t, skips)) }
func TestStoredProcedures(t *testing.T)  { enginetest.TestStoredProcedures(t, newHarness(t, skips)) }
func TestVariables(t *testing.T)         { enginetest.TestVariables(t, newHarness(t, skips)) }
func TestComplexIndexQueries(t *testing.T) {
	enginetest.TestComplexIndexQueries(t, newHarness(t, skips))
}
func TestCreateCheckConstraints(t *testing.T) {
	enginetest.TestCreateCheckConstraints(t, newHarness(t, skips))
}
func TestChecksOnInsert(t *testing.T) { enginetest.TestChecksOnInsert(t, newHarness(t, skips)) }
func TestChecksOnUpdate(t *testing.T) { enginetest.TestChecksOnUpdate(t, newHarness(t, skips)) }
func TestDropCheckConstraints(t *testing.T) {
	enginetest.TestDropCheckConstraints(t, newHarness(t, skips))
}
func TestNaturalJoin(t *testing.T)     { enginetest.TestNaturalJoin(t, newHarness(t, skips)) }
func TestWindowFunctions(t *testing.T) { enginetest.TestWindowFunctions(t, newHarness(t, skips)) }
func TestPkOrdinalsDDL(t *testing.T)   { enginetest.TestPkOrdinalsDDL(t, newHarness(t, skips)) }
func TestPkOrdinalsDML(t *testing.T)   { enginetest.TestPkOrdinalsDML(t, newHarness(t, skips)) }
func TestDropColumnKeylessTables(t *testing.T) {
	enginetest.TestDropColumnKeylessTables(t, newHarness(t, skips))
}
