package gmstest

import (
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
)

// go-mysql-server's spatial engine tests: geometry columns, the spatial
// functions over them, and SPATIAL indexes (which HandlerDB keeps without
// building them, so its queries scan; the index plan tests are not run,
// nor the prepared index scripts, whose script names skip rules cannot
// match: the unprepared ones run).

func TestSpatialQueries(t *testing.T)    { enginetest.TestSpatialQueries(t, newHarness(t, skips)) }
func TestSpatialInsertInto(t *testing.T) { enginetest.TestSpatialInsertInto(t, newHarness(t, skips)) }
func TestSpatialUpdate(t *testing.T)     { enginetest.TestSpatialUpdate(t, newHarness(t, skips)) }
func TestSpatialDelete(t *testing.T)     { enginetest.TestSpatialDelete(t, newHarness(t, skips)) }
func TestSpatialScripts(t *testing.T)    { enginetest.TestSpatialScripts(t, newHarness(t, skips)) }
func TestSpatialIndexScripts(t *testing.T) {
	enginetest.TestSpatialIndexScripts(t, newHarness(t, skips))
}

func TestSpatialQueriesPrepared(t *testing.T) {
	enginetest.TestSpatialQueriesPrepared(t, newHarness(t, skips))
}
func TestSpatialScriptsPrepared(t *testing.T) {
	enginetest.TestSpatialScriptsPrepared(t, newHarness(t, skips))
}
