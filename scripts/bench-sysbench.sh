#!/usr/bin/env bash
# One sysbench sitting: HandlerDB against MariaDB on sysbench's standard
# OLTP scripts, alternating the servers round by round, with each
# server's CPU per transaction read from /proc/PID/stat.
#
# Needs sysbench (apt-get install -y sysbench) and two servers already
# running with a database sbtest each:
#   OURS_PORT / OURS_PID   a HandlerDB (e.g. --durability os)
#   MARIA_PORT / MARIA_PID the anchor (../shared/anchors/mariadb-hs.sh,
#                          innodb_flush_log_at_trx_commit=2), by default
# PREPARE=1 (the default) drops and creates the sbtest tables on both
# first. SCRIPTS, ROUNDS (3), TIME (10 s), THREADS (8), TABLES (4) and
# SIZE (20000) set the sitting. SB_NICE (default 0) runs sysbench at that
# nice level: on a machine where the load generator shares the servers'
# cores, SB_NICE=10 keeps its threads from taking the CPU from either
# server (docs/BENCHMARKS.md, session 30).
set -euo pipefail
OURS_PORT=${OURS_PORT:-3306} OURS_PID=${OURS_PID:?pid of the handlerdb process}
MARIA_PORT=${MARIA_PORT:-13306}
MARIA_PID=${MARIA_PID:-$(cat /tmp/anchor-mariadb/mysqld.pid)}
SCRIPTS=${SCRIPTS:-"oltp_point_select oltp_read_only oltp_read_write oltp_insert oltp_update_index oltp_delete select_random_ranges"}
ROUNDS=${ROUNDS:-3} TIME=${TIME:-10} THREADS=${THREADS:-8}
TABLES=${TABLES:-4} SIZE=${SIZE:-20000} PREPARE=${PREPARE:-1}
USER=${SB_USER:-root}

sb() { # port script command [args]
  local port=$1 script=$2 cmd=$3; shift 3
  nice -n "${SB_NICE:-0}" sysbench "$script" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$port" \
    --mysql-user="$USER" --mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" \
    --threads="$THREADS" "$@" "$cmd"
}
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; } # utime+stime in clock ticks
hz=$(getconf CLK_TCK)

if [ "$PREPARE" = 1 ]; then
  for port in "$OURS_PORT" "$MARIA_PORT"; do
    sb "$port" oltp_common cleanup >/dev/null
    sb "$port" oltp_common prepare >/dev/null
  done
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# round: label port pid script -> "label script tps cpu_ms_per_txn p95_ms errors"
round() {
  local label=$1 port=$2 pid=$3 script=$4 c0 c1 res
  c0=$(cpu "$pid")
  res=$(sb "$port" "$script" run --time="$TIME" --report-interval=0 --db-ps-mode=auto)
  c1=$(cpu "$pid")
  echo "$res" | awk -v l="$label" -v s="$script" -v ticks=$((c1 - c0)) -v hz="$hz" '
    /transactions:/ { gsub(/\(/, "", $3); tps = $3; n = $2 }
    /ignored errors:/ { err = $3 }
    /95th percentile:/ { p95 = $3 }
    END { printf "%s %s %.1f %.3f %s %s\n", l, s, tps, ticks * 1000 / hz / n, p95, err }'
}
for script in $SCRIPTS; do
  for r in $(seq "$ROUNDS"); do
    round ours "$OURS_PORT" "$OURS_PID" "$script" | tee -a "$out"
    round maria "$MARIA_PORT" "$MARIA_PID" "$script" | tee -a "$out"
  done
  # the delete and insert scripts change the tables: give the next script
  # the same rows on both sides
  case $script in oltp_delete | oltp_insert | oltp_read_write)
    [ "$PREPARE" = 1 ] && for port in "$OURS_PORT" "$MARIA_PORT"; do
      sb "$port" oltp_common cleanup >/dev/null
      sb "$port" oltp_common prepare >/dev/null
    done ;;
  esac
done

echo
echo "medians of $ROUNDS rounds (tps ours/maria; CPU per txn maria/ours; p95 ms ours, maria; errors ours):"
awk '
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { k = $1 SUBSEP $2; n[k]++; tps[k, n[k]] = $3; cpu[k, n[k]] = $4; p95[k, n[k]] = $5; err[k] += $6
    if (!($2 in seen)) { seen[$2] = 1; order[++ns] = $2 } }
  END {
    for (i = 1; i <= ns; i++) {
      s = order[i]
      for (side = 0; side < 2; side++) {
        l = side ? "maria" : "ours"; k = l SUBSEP s
        for (j = 1; j <= n[k]; j++) { a[j] = tps[k, j]; b[j] = cpu[k, j]; c[j] = p95[k, j] }
        T[l] = median(a, n[k]); C[l] = median(b, n[k]); P[l] = median(c, n[k])
      }
      printf "%-22s tps %6.0f / %6.0f = %.2f   cpu/txn %.3f / %.3f ms = %.2f   p95 %s / %s   errors %d\n",
        s, T["ours"], T["maria"], T["ours"] / T["maria"], C["maria"], C["ours"], C["maria"] / C["ours"],
        P["ours"], P["maria"], err["ours" SUBSEP s]
    }
  }' "$out"
