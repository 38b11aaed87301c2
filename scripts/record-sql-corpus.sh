#!/usr/bin/env bash
# Re-record testdata/sqlcorpus/*.out from MariaDB 10.11 (the anchor of
# ../shared/anchors/mariadb-hs.sh), with the same Go replayer that
# TestSQLCorpus (internal/sqlfront/corpus_test.go) runs against HandlerDB.
#
# Usage: scripts/record-sql-corpus.sh          (from anywhere in the tree)
# Env:   SQLCORPUS_DSN  go-sql-driver DSN naming no database
#                       (default bench:bench@tcp(127.0.0.1:13306)/)
#        HANDLERDB_SQLCORPUS_ONLY  script names to record (comma-separated;
#                       default: all)
#        ANCHOR         the anchor script (default ../shared/anchors/mariadb-hs.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ANCHOR=${ANCHOR:-../shared/anchors/mariadb-hs.sh}
DSN=${SQLCORPUS_DSN:-'bench:bench@tcp(127.0.0.1:13306)/'}
if [ -z "${SQLCORPUS_DSN:-}" ]; then
  if ! command -v mariadbd >/dev/null 2>&1; then
    apt-get install -y mariadb-server
  fi
  "$ANCHOR" start
fi
HANDLERDB_SQLCORPUS_RECORD="$DSN" go test -count=1 -v -run '^TestSQLCorpus$' ./internal/sqlfront/
