package gmstest

import (
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
	"github.com/dolthub/go-mysql-server/enginetest/queries"
)

func TestScripts(t *testing.T) { enginetest.TestScripts(t, newHarness(t, skips)) }

// TestTransactionScripts runs enginetest's transaction scripts, skipping
// by script name (enginetest checks only their statements).
func TestTransactionScripts(t *testing.T) {
	h := newHarness(t, skips)
	for _, script := range queries.TransactionTests {
		if h.SkipQueryTest(script.Name) {
			t.Run(script.Name, func(t *testing.T) { t.Skip() })
			continue
		}
		enginetest.TestTransactionScript(t, h, script)
	}
}
func TestAlterTable(t *testing.T) { enginetest.TestAlterTable(t, newHarness(t, skips)) }
func TestBlobs(t *testing.T)      { enginetest.TestBlobs(t, newHarness(t, skips)) }
func TestIndexes(t *testing.T)    { enginetest.TestIndexes(t, newHarness(t, skips)) }
func TestInfoSchema(t *testing.T) { enginetest.TestInfoSchema(t, newHarness(t, skips)) }
