#!/usr/bin/env bash
# One benchmark sitting: HandlerDB vs MariaDB's HandlerSocket, same client,
# alternating A B A B A B, with each server's CPU per operation.
#
# Needs: a HandlerDB binary running with --handlersocket-port $OURS_HS
# --handlersocket-port-wr $OURS_WR --port $OURS_SQL, the anchor started by
# ../shared/anchors/mariadb-hs.sh, and both loaded with
#   hsbench load --mysql DSN --hs hs://127.0.0.1:PORT?wr_port=PORT --keys 100000
# Durable writes: a HandlerDB in --durability sync against the MariaDB of
# scripts/mariadb-flush1.sh (MARIA_PID=$(cat /tmp/maria-flush1/mysqld.pid)
# MARIA_HS=24998 MARIA_WR=24999), e.g. WORKLOADS="insert 16 1,insert 64 1" SQL=0.
set -euo pipefail
HSBENCH=${HSBENCH:-hsbench}
OURS_HS=${OURS_HS:-9998} OURS_WR=${OURS_WR:-9999} OURS_SQL=${OURS_SQL:-3306}
OURS_PID=${OURS_PID:?pid of the handlerdb process}
MARIA_PID=${MARIA_PID:-$(cat /tmp/anchor-mariadb/mysqld.pid)}
MARIA_HS=${MARIA_HS:-19998} MARIA_WR=${MARIA_WR:-19999}
DUR=${DUR:-5s}
# WORKLOADS: "workload conns pipeline" triples, comma-separated; SQL=0
# leaves out the SQL point-select rounds.
WORKLOADS=${WORKLOADS:-"get 16 1,get 16 16,update 16 16,insert 16 16"}
SQL=${SQL:-1}
ours="hs://127.0.0.1:$OURS_HS?wr_port=$OURS_WR"
maria="hs://127.0.0.1:$MARIA_HS?wr_port=$MARIA_WR"
# TARGET=mysql runs the workloads as prepared SQL statements instead,
# over OURS_SQL and MARIA_SQL (MARIA_USER, default bench:bench), e.g. the
# durable comparison of SQL inserts, which MariaDB's binary log records
# (its HandlerSocket writes it does not: MDEV-33967).
TARGET=${TARGET:-hs}
MARIA_SQL=${MARIA_SQL:-13306} MARIA_USER=${MARIA_USER:-bench:bench}
# TARGET=memcached runs them over the memcached text protocol against
# OURS_MC (HandlerDB's memcached port) and MARIA_MC, which is then
# Debian's memcached (memcached -t 2, its pid as MARIA_PID), both loaded
# with hsbench load --target memcached --memcached ADDR --keys 100000.
OURS_MC=${OURS_MC:-127.0.0.1:11211} MARIA_MC=${MARIA_MC:-127.0.0.1:21211}
if [ "$TARGET" = memcached ]; then
  ours=$OURS_MC maria=$MARIA_MC SQL=0
fi
run() { # label dsn pid args...
  local label=$1 dsn=$2 pid=$3; shift 3
  local sqldsn="root@tcp(127.0.0.1:$OURS_SQL)/"
  [ "$label" = maria ] && sqldsn="$MARIA_USER@tcp(127.0.0.1:$MARIA_SQL)/"
  local to=(--hs "$dsn")
  [ "$TARGET" = memcached ] && to=(--memcached "$dsn")
  "$HSBENCH" run --target "$TARGET" "${to[@]}" --mysql "$sqldsn" --duration "$DUR" --warmup 1s --quiet --server-pid "$pid" "$@" 2>&1 |
    grep -E "^ +(hs|mysql|memcached)" | sed "s/^/$label /"
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
exec 3>&1 >"$out" # every result line goes to the terminal and to $out
tail -f "$out" >&3 &
tailer=$!
IFS=, read -ra triples <<<"$WORKLOADS"
for w in "${triples[@]}"; do
  set -- $w
  for round in 1 2 3; do
    run ours "$ours" "$OURS_PID" --workload "$1" --conns "$2" --pipeline "$3"
    run maria "$maria" "$MARIA_PID" --workload "$1" --conns "$2" --pipeline "$3"
  done
done
for round in 1 2 3; do
  [ "$SQL" = 1 ] || break
  run ours-hs "$ours" "$OURS_PID" --workload get --conns 16 --pipeline 1
  "$HSBENCH" run --target mysql --mysql "root@tcp(127.0.0.1:$OURS_SQL)/" --duration "$DUR" --warmup 1s --quiet \
    --server-pid "$OURS_PID" --workload get --conns 16 2>&1 | grep -E "^ +mysql" | sed "s/^/ours-sql /"
done
exec >&3
sleep 0.2
kill "$tailer"

# Summary: per workload, the medians of each side's ops/s, server CPU
# per op and p99, and the ratios (ops: ours over maria; CPU: maria over
# ours, so above 1 ours is cheaper; p99: maria over ours, above 1 ours is
# lower).
echo
echo "medians of 3 rounds:"
awk '
  function us(v) { # "20.7µs", "950ns", "1.2ms", "1.1s" -> microseconds
    if (sub(/ns$/, "", v)) return v / 1000
    if (sub(/ms$/, "", v)) return v * 1000
    if (sub(/µs$/, "", v)) return v + 0
    if (sub(/s$/, "", v)) return v * 1000000
    return v + 0
  }
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)]
  }
  { key = $3 " " $4 "x" $5; side = $1; ops[side, key] = ops[side, key] " " $6; p99[side, key] = p99[side, key] " " us($8)
    cpu[side, key] = cpu[side, key] " " us($NF); keys[key] = 1 }
  END {
    printf "%-16s %9s %9s %6s   %8s %8s %6s   %9s %9s %6s\n", "workload", "ops ours", "maria", "ratio", "cpu ours", "maria", "ratio", "p99 ours", "maria", "ratio"
    for (k in keys) {
      if (ops["ours", k] == "") continue
      oo = median(ops["ours", k]); mo = median(ops["maria", k])
      oc = median(cpu["ours", k]); mc = median(cpu["maria", k])
      op = median(p99["ours", k]); mp = median(p99["maria", k])
      printf "%-16s %9d %9d %6.2f   %8.2f %8.2f %6.2f   %9.0f %9.0f %6.2f\n", k, oo, mo, (mo > 0 ? oo / mo : 0), oc, mc, (oc > 0 ? mc / oc : 0), op, mp, (op > 0 ? mp / op : 0)
    }
    for (k in keys) {
      if (ops["ours-sql", k] == "") continue
      printf "SQL point select %s: %d ops/s, %.2f us CPU/op (HS %s: %.2f)\n", k, median(ops["ours-sql", k]), median(cpu["ours-sql", k]), k, median(cpu["ours-hs", k])
    }
  }' "$out"
