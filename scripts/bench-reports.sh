#!/usr/bin/env bash
# Times the SQL corpus' reports (21-reports.sql over 20-schema.inc, plus
# the primary-key-filtered joins of issue #13) and a dump load on a
# HandlerDB server this script starts and on a running MariaDB, with
# scripts/benchreports. Prints per report the median of each side, in ms,
# and the ratio HandlerDB / MariaDB.
#
#   scripts/bench-reports.sh [benchreports flags, e.g. -rounds 5 -only 2,6,pk-join]
#
# MARIA_DSN (default bench:bench@tcp(127.0.0.1:13306)/) is the MariaDB;
# PORT (default 13406; HandlerSocket on PORT+1 and PORT+2) is HandlerDB's.
# SERVER_BIN runs that binary instead of building ./cmd/handlerdb (to
# compare two versions). DURABILITY (default os, as the reference MariaDB's
# innodb_flush_log_at_trx_commit=2) is HandlerDB's --durability.
set -euo pipefail
cd "$(dirname "$0")/.."
MARIA_DSN=${MARIA_DSN:-'bench:bench@tcp(127.0.0.1:13306)/'}
PORT=${PORT:-13406}
DURABILITY=${DURABILITY:-os}
. scripts/handlerdb-server.sh
go build -o "$tmp/benchreports" ./scripts/benchreports
handlerdb_start bench-reports $((PORT + 1)) $((PORT + 2))
unset SERVER_BIN
"$tmp/benchreports" -ours "root@tcp(127.0.0.1:$PORT)/" -maria "$MARIA_DSN" "$@"
