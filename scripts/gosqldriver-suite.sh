#!/usr/bin/env bash
# go-sql-driver/mysql's own test suite (the version go.mod pins) against a
# HandlerDB server this script starts on a free loopback port. Each of the
# suite's tests runs in a process of its own (a failure inside one of its
# parallel subtests stops the whole binary), with its MYSQL_TEST_*
# variables. Exits 1 if a test fails that is not in
# testdata/clients/gosqldriver-expected-failures.txt (what MariaDB 10.11
# itself fails, or what this machine cannot run, and why).
#
# Usage: scripts/gosqldriver-suite.sh       (from anywhere in the tree)
# Env:   GOSQLDRIVER_SUITE_ADDR  run against a server already listening
#                                there (host:port), as GOSQLDRIVER_SUITE_USER
#                                (root) with GOSQLDRIVER_SUITE_PASS ("")
#        GOSQLDRIVER_SUITE_RUN   a regexp of the tests to run (all)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mod=github.com/go-sql-driver/mysql
ver=$(go list -m -f '{{.Version}}' "$mod")
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# The module's source, writable, and its test binary.
dir=$(go mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp -r "$dir" "$tmp/src" && chmod -R u+w "$tmp/src"
(cd "$tmp/src" && GOFLAGS=-mod=mod go test -c -o "$tmp/suite.test" .)

if ! command -v openssl >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq openssl >/dev/null
fi
addr=${GOSQLDRIVER_SUITE_ADDR:-}
user=${GOSQLDRIVER_SUITE_USER:-root}
pass=${GOSQLDRIVER_SUITE_PASS:-}
if [ -z "$addr" ]; then
  go build -o "$tmp/handlerdb" ./cmd/handlerdb
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # TLS on, as the suite's TLS tests need (a self-signed certificate).
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1
  "$tmp/handlerdb" --datadir="$tmp/data" --bind-address=127.0.0.1 --port="$port" --handlersocket-port=-1 --memcached-port=-1 \
    --handlersocket-port-wr=-1 --admin-address= --log-level=warn \
    --tls-cert="$tmp/cert.pem" --tls-key="$tmp/key.pem" >"$tmp/server.log" 2>&1 &
  pid=$!
  addr=127.0.0.1:$port
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
fi
host=${addr%:*} port=${addr##*:}
mariadb -h"$host" -P"$port" -u"$user" ${pass:+-p"$pass"} -e 'DROP DATABASE IF EXISTS gotest; CREATE DATABASE gotest'

export MYSQL_TEST_ADDR=$addr MYSQL_TEST_USER=$user MYSQL_TEST_PASS=$pass MYSQL_TEST_DBNAME=gotest MYSQL_TEST_CONCURRENT=1
: >"$tmp/failed"
n=0
for t in $("$tmp/suite.test" -test.list '.*' | grep -E "${GOSQLDRIVER_SUITE_RUN:-.}"); do
  n=$((n + 1))
  if ! (cd "$tmp/src" && timeout 300 "$tmp/suite.test" -test.run "^$t\$" -test.count=1 >"$tmp/$t.log" 2>&1); then
    echo "$t" >>"$tmp/failed"
    echo "FAIL $t:"
    # The suite's own messages (file:line: ...), else the log's start.
    # (head closes the pipe early: grep's SIGPIPE must not end the script)
    { grep -E '_test\.go:[0-9]+: ' "$tmp/$t.log" || grep -vE '^(=== |--- PASS)' "$tmp/$t.log"; } | head -n 6 | cut -c1-240 | sed 's/^ */    /' || true
  fi
done
sort -u -o "$tmp/failed" "$tmp/failed"
grep -vE '^(#|$)' testdata/clients/gosqldriver-expected-failures.txt | sed -E 's/ +#.*$//' | sort -u >"$tmp/expected"
echo "go-sql-driver/mysql $ver: $n tests, $(wc -l <"$tmp/failed") failed, $(comm -12 "$tmp/failed" "$tmp/expected" | wc -l) of them expected"
unexpected=$(comm -23 "$tmp/failed" "$tmp/expected")
if [ -n "$unexpected" ]; then
  echo "unexpected failures:"; echo "$unexpected"
  exit 1
fi
