#!/usr/bin/env bash
# Times LOAD DATA LOCAL INFILE of one generated file (ROWS rows, default
# 100000: an integer key, a secondary-indexed VARCHAR, INT, DECIMAL, DATE
# and a longer VARCHAR) into a fresh table on a HandlerDB server this
# script starts and on a running MariaDB, ROUNDS times (default 3)
# alternating, with the mariadb client. Prints each round's wall times in
# ms and the ratio HandlerDB / MariaDB of the medians.
#
#   scripts/bench-loaddata.sh
#
# MARIA (default "-h127.0.0.1 -P13306 -ubench -pbench") are the client's
# arguments for the MariaDB; PORT (default 13426) is HandlerDB's SQL port.
# SERVER_BIN runs that binary instead of building ./cmd/handlerdb (to
# compare two versions). DURABILITY (default os, as the reference MariaDB's
# innodb_flush_log_at_trx_commit=2) is HandlerDB's --durability. The
# MariaDB database is ld_bench (dropped at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
MARIA=${MARIA:-"-h127.0.0.1 -P13306 -ubench -pbench"}
PORT=${PORT:-13426}
DURABILITY=${DURABILITY:-os}
ROWS=${ROWS:-100000}
ROUNDS=${ROUNDS:-3}
. scripts/handlerdb-server.sh
handlerdb_start bench-loaddata -1 -1
ours="-h127.0.0.1 -P$PORT -uroot"
awk -v n="$ROWS" 'BEGIN {
  for (i = 1; i <= n; i++)
    printf "%d\tname-%d\t%d\t%d.%02d\t20%02d-%02d-%02d\tnote %d for row %d, with some text\n",
      i, (i * 7919) % 50000, i % 1000, i % 100000, i % 100, i % 30, i % 12 + 1, i % 28 + 1, i % 97, i
}' >"$tmp/rows.tsv"
mariadb $ours -e "SET GLOBAL local_infile = 1"
schema="CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, qty INT NOT NULL,
  price DECIMAL(10,2) NOT NULL, day DATE NOT NULL, note VARCHAR(100), KEY iname (name))"
# load ARGS: recreates ld_bench.t, loads the file, prints the ms it took.
load() {
  mariadb "$@" -e "DROP DATABASE IF EXISTS ld_bench; CREATE DATABASE ld_bench; USE ld_bench; $schema"
  local t0 t1
  t0=$(date +%s%N)
  mariadb "$@" --local-infile=1 ld_bench -e "LOAD DATA LOCAL INFILE '$tmp/rows.tsv' INTO TABLE t"
  t1=$(date +%s%N)
  local n
  n=$(mariadb "$@" -N ld_bench -e "SELECT COUNT(*) FROM t")
  if [ "$n" != "$ROWS" ]; then echo "bench-loaddata: $n rows loaded, not $ROWS" >&2; exit 1; fi
  echo $(((t1 - t0) / 1000000))
}
declare -a hs ms
for r in $(seq "$ROUNDS"); do
  # shellcheck disable=SC2086
  h=$(load $ours)
  # shellcheck disable=SC2086
  m=$(load $MARIA)
  hs+=("$h"); ms+=("$m")
  echo "round $r: HandlerDB ${h} ms, MariaDB ${m} ms"
done
# shellcheck disable=SC2086
mariadb $MARIA -e "DROP DATABASE ld_bench"
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mh=$(median "${hs[@]}"); mm=$(median "${ms[@]}")
awk -v h="$mh" -v m="$mm" -v n="$ROWS" 'BEGIN { printf "%d rows: median HandlerDB %d ms, MariaDB %d ms, ratio %.2f\n", n, h, m, h / m }'
