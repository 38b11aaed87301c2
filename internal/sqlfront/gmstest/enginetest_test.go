package gmstest

import (
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
)

var skips = newSkipList(skipRules)

func TestQueries(t *testing.T)        { enginetest.TestQueries(t, newHarness(t, skips)) }
func TestJoinQueries(t *testing.T)    { enginetest.TestJoinQueries(t, newHarness(t, skips)) }
func TestInsertInto(t *testing.T)     { enginetest.TestInsertInto(t, newHarness(t, skips)) }
func TestReplaceInto(t *testing.T)    { enginetest.TestReplaceInto(t, newHarness(t, skips)) }
func TestUpdate(t *testing.T)         { enginetest.TestUpdate(t, newHarness(t, skips)) }
func TestDelete(t *testing.T)         { enginetest.TestDelete(t, newHarness(t, skips)) }
func TestTruncate(t *testing.T)       { enginetest.TestTruncate(t, newHarness(t, skips)) }
func TestCreateTable(t *testing.T)    { enginetest.TestCreateTable(t, newHarness(t, skips)) }
func TestDropTable(t *testing.T)      { enginetest.TestDropTable(t, newHarness(t, skips)) }
func TestRenameTable(t *testing.T)    { enginetest.TestRenameTable(t, newHarness(t, skips)) }
func TestAddColumn(t *testing.T)      { enginetest.TestAddColumn(t, newHarness(t, skips)) }
func TestDropColumn(t *testing.T)     { enginetest.TestDropColumn(t, newHarness(t, skips)) }
func TestModifyColumn(t *testing.T)   { enginetest.TestModifyColumn(t, newHarness(t, skips)) }
func TestCreateDatabase(t *testing.T) { enginetest.TestCreateDatabase(t, newHarness(t, skips)) }
func TestDropDatabase(t *testing.T)   { enginetest.TestDropDatabase(t, newHarness(t, skips)) }
