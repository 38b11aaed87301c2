#!/usr/bin/env bash
# A second MariaDB 10.11 with HandlerSocket and innodb_flush_log_at_trx_commit=1,
# for durable-write comparisons with a HandlerDB in --durability sync; the
# anchor (13306/19998/19999, flush=2) keeps running. Same command line as
# ../shared/anchors/mariadb-hs.sh but the ports, the data directory and a
# smaller buffer pool. Ports: SQL 24306, HS 24998/24999. Data: /tmp/maria-flush1.
# Then, for scripts/bench-sitting.sh: MARIA_PID=$(cat /tmp/maria-flush1/mysqld.pid)
# MARIA_HS=24998 MARIA_WR=24999, and hsbench load --mysql
# 'bench:bench@tcp(127.0.0.1:24306)/' --hs 'hs://127.0.0.1:24998?wr_port=24999'.
# LOG_BIN=1 adds a binary log synced at each commit (log_bin, sync_binlog=1),
# against a HandlerDB with --durability sync --log-bin (MariaDB's
# HandlerSocket writes are not in its binary log, MDEV-33967: its HS figures
# pay for the sync only where SQL writes).
set -euo pipefail
D=/tmp/maria-flush1
BINLOG=""
if [ "${LOG_BIN:-0}" = 1 ]; then BINLOG="--log-bin=$D/binlog --sync-binlog=1 --server-id=1"; fi
SOCK=$D/mysqld.sock
mkdir -p "$D"
if [ ! -d "$D/data/mysql" ]; then
  mariadb-install-db --user=root --datadir="$D/data" --auth-root-authentication-method=normal >/dev/null
fi
nohup mariadbd --user=root --datadir="$D/data" --socket="$SOCK" --port=24306 --bind-address=127.0.0.1 \
  --pid-file="$D/mysqld.pid" --log-error="$D/error.log" --skip-name-resolve \
  --innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=1 --max-connections=2000 \
  --plugin-maturity=beta --plugin-load-add=handlersocket.so --handlersocket_address=127.0.0.1 \
  --handlersocket_port=24998 --handlersocket_port_wr=24999 \
  --handlersocket_threads=2 --handlersocket_threads_wr=1 \
  --handlersocket_plain_secret= --handlersocket_plain_secret_wr= $BINLOG >/dev/null 2>&1 &
for i in $(seq 1 60); do
  if mariadb -S "$SOCK" -uroot -e 'select 1' >/dev/null 2>&1; then break; fi; sleep 0.5
done
mariadb -S "$SOCK" -uroot -e "CREATE USER IF NOT EXISTS 'bench'@'127.0.0.1' IDENTIFIED BY 'bench'; GRANT ALL ON *.* TO 'bench'@'127.0.0.1';"
echo "started: sql 127.0.0.1:24306, hs 24998/24999"
