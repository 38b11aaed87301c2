#!/usr/bin/env bash
# Counts the instructions a HandlerDB server spends answering a query
# file, with valgrind's callgrind: repeatable where timing on this shared
# machine is not (two runs of one binary agree within 1%).
#
#   scripts/callgrind-query.sh QUERYFILE [N] [BINARY...]
#
# For each binary (default: ./cmd/handlerdb built now) it starts the
# server under callgrind with instrumentation off, loads the report
# corpus' schema and rows (scripts/benchreports, database plan26_bench),
# runs the file N times (default 3) once to warm, waits for background
# work to settle, then counts the instructions of N more runs and prints
# them. The server runs with GOGC=off (a collection's cost lands in
# whichever statement it happens under, which makes counts jump),
# GOMAXPROCS=1 (no scheduler spinning between goroutines) and
# GODEBUG=asyncpreemptoff=1 (callgrind cannot take Go's preemption
# signals). So the count leaves out the collector: compare allocations
# with go test -benchmem. The output file of each binary is kept
# (callgrind_annotate DIR/cg.out; --inclusive=yes for the call tree).
set -euo pipefail
cd "$(dirname "$0")/.."
q=$(realpath "$1"); n=${2:-3}; shift $(( $# >= 2 ? 2 : 1 ))
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/callgrind-query.XXXXXX)
go build -o "$tmp/benchreports" ./scripts/benchreports
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$tmp/handlerdb" ./cmd/handlerdb
  bins=("$tmp/handlerdb")
fi
port=13940
for b in "${bins[@]}"; do
  d="$tmp/$(basename "$b")-$port"; mkdir -p "$d"
  GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$d/cg.out" "$b" --datadir "$d/data" --bind-address 127.0.0.1 --port "$port" \
    --handlersocket-port -1 --handlersocket-port-wr -1 --memcached-port -1 --admin-address '' --durability os \
    --log-level warn >"$d/log" 2>&1 &
  pid=$!
  for _ in $(seq 600); do mariadb -h127.0.0.1 -P"$port" -uroot -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done
  "$tmp/benchreports" -ours "root@tcp(127.0.0.1:$port)/" -rounds 1 -load-rounds 0 -only 1 >/dev/null
  for _ in $(seq "$n"); do cat "$q"; done >"$d/q.sql"
  mariadb -h127.0.0.1 -P"$port" -uroot plan26_bench <"$d/q.sql" >/dev/null
  sleep 8
  callgrind_control -i on "$pid" >/dev/null 2>&1
  mariadb -h127.0.0.1 -P"$port" -uroot plan26_bench <"$d/q.sql" >/dev/null
  callgrind_control -i off "$pid" >/dev/null 2>&1
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$b: $(grep Collected "$d/log" | sed 's/.*: //') instructions ($d)"
  port=$((port + 1))
done
