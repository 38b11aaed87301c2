# Sourced by the bench scripts: a temporary directory $tmp, removed at
# exit with the server started in it, and
#
#   handlerdb_start NAME HS_PORT HS_WR_PORT   (-1 turns a port off)
#
# builds ./cmd/handlerdb into $tmp (or runs $SERVER_BIN), starts it on a
# fresh $tmp/data with SQL on $PORT, --durability $DURABILITY and no admin
# listener, sets $pid, waits for the SQL port, and exits with the server's
# log if it does not come up.
tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

handlerdb_start() {
  local name=$1 hs=$2 wr=$3 bin=${SERVER_BIN:-} up=
  if [ -z "$bin" ]; then
    go build -o "$tmp/handlerdb" ./cmd/handlerdb
    bin=$tmp/handlerdb
  fi
  "$bin" --datadir "$tmp/data" --bind-address 127.0.0.1 --port "$PORT" \
    --handlersocket-port "$hs" --handlersocket-port-wr "$wr" --memcached-port -1 \
    --admin-address '' --durability "$DURABILITY" --log-level warn >"$tmp/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then up=1; break; fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [ -z "$up" ]; then
    echo "$name: HandlerDB did not start on port $PORT:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
}
