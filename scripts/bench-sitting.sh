#!/usr/bin/env bash
# One benchmark sitting: HandlerDB vs MariaDB's HandlerSocket, same client,
# alternating A B A B A B, with each server's CPU per operation.
#
# Needs: a HandlerDB binary running with --handlersocket-port $OURS_HS
# --handlersocket-port-wr $OURS_WR --port $OURS_SQL, the anchor started by
# ../shared/anchors/mariadb-hs.sh, and both loaded with
#   hsbench load --mysql DSN --hs hs://127.0.0.1:PORT?wr_port=PORT --keys 100000
set -euo pipefail
HSBENCH=${HSBENCH:-hsbench}
OURS_HS=${OURS_HS:-9998} OURS_WR=${OURS_WR:-9999} OURS_SQL=${OURS_SQL:-3306}
OURS_PID=${OURS_PID:?pid of the handlerdb process}
MARIA_PID=${MARIA_PID:-$(cat /tmp/anchor-mariadb/mysqld.pid)}
DUR=${DUR:-5s}
ours="hs://127.0.0.1:$OURS_HS?wr_port=$OURS_WR"
maria="hs://127.0.0.1:19998?wr_port=19999"
run() { # label dsn pid args...
  local label=$1 dsn=$2 pid=$3; shift 3
  "$HSBENCH" run --hs "$dsn" --duration "$DUR" --warmup 1s --quiet --server-pid "$pid" "$@" 2>&1 |
    grep -E "^ +(hs|mysql)" | sed "s/^/$label /"
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
exec 3>&1 >"$out" # every result line goes to the terminal and to $out
tail -f "$out" >&3 &
tailer=$!
for w in "get 16 1" "get 16 16" "update 16 16" "insert 16 16"; do
  set -- $w
  for round in 1 2 3; do
    run ours "$ours" "$OURS_PID" --workload "$1" --conns "$2" --pipeline "$3"
    run maria "$maria" "$MARIA_PID" --workload "$1" --conns "$2" --pipeline "$3"
  done
done
for round in 1 2 3; do
  run ours-hs "$ours" "$OURS_PID" --workload get --conns 16 --pipeline 1
  "$HSBENCH" run --target mysql --mysql "root@tcp(127.0.0.1:$OURS_SQL)/" --duration "$DUR" --warmup 1s --quiet \
    --server-pid "$OURS_PID" --workload get --conns 16 2>&1 | grep -E "^ +mysql" | sed "s/^/ours-sql /"
done
exec >&3
sleep 0.2
kill "$tailer"

# Summary: median server CPU per operation of each side, per workload, and
# their ratio (the second side's over the first's: above 1, the first is
# cheaper).
echo
echo "median server CPU per op (3 rounds):"
awk '
  function us(v) { # "20.7µs", "950ns", "1.2ms" -> microseconds
    if (sub(/ns$/, "", v)) return v / 1000
    if (sub(/ms$/, "", v)) return v * 1000
    sub(/[^0-9.]+$/, "", v)
    return v + 0
  }
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)]
  }
  { key = $3 " " $4 "x" $5; side = $1; v[side, key] = v[side, key] " " us($NF); keys[key] = 1 }
  END {
    printf "%-16s %10s %10s %8s   %10s %10s %8s\n", "workload", "ours", "maria", "maria/ours", "ours-hs", "ours-sql", "sql/hs"
    for (k in keys) {
      o = median(v["ours", k]); m = median(v["maria", k]); h = median(v["ours-hs", k]); q = median(v["ours-sql", k])
      printf "%-16s %10.2f %10.2f %8.2f   %10.2f %10.2f %8.2f\n", k, o, m, (o > 0 ? m / o : 0), h, q, (h > 0 ? q / h : 0)
    }
  }' "$out"
