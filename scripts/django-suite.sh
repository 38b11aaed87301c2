#!/usr/bin/env bash
# Django 3.2's own test suite (basic, model_fields, queries, transactions,
# migrations; Debian's source package, pinned) against a HandlerDB server
# this script starts on a free loopback port, with mysqlclient. Exits 1 if
# a test fails that is not in testdata/orm/django-expected-failures.txt
# (what MariaDB 10.11 itself fails, and why).
#
# Usage: scripts/django-suite.sh            (from anywhere in the tree)
# Env:   DJANGO_SUITE_PORT  run against a server already listening there
#                           (root, no password; e.g. 13306, the anchor)
#        DJANGO_SUITE_CACHE where the Django source is kept
#                           (default ~/.cache/handlerdb-django)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
DJANGO_DEB=3:3.2.25-0+deb12u3
LABELS="basic model_fields queries transactions migrations"
cache=${DJANGO_SUITE_CACHE:-$HOME/.cache/handlerdb-django}
py=/usr/bin/python3

export DEBIAN_FRONTEND=noninteractive
# mysqlclient, and what Django 3.2 itself imports (Debian's packages; a
# new machine has none of them).
if ! "$py" -c 'import MySQLdb, asgiref, sqlparse, pytz' 2>/dev/null; then
  apt-get update -qq && apt-get install -y -qq python3-mysqldb python3-asgiref python3-sqlparse python3-tz >/dev/null
fi
src="$cache/Django-3.2.25"
if [ ! -f "$src/tests/runtests.py" ]; then
  mkdir -p "$cache"
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # Debian's source packages, from the mirror the machine already uses.
    cat > /etc/apt/sources.list.d/handlerdb-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  apt-get update -qq
  command -v dpkg-source >/dev/null || apt-get install -y -qq dpkg-dev >/dev/null
  (cd "$cache" && apt-get source -qq --download-only "python-django=$DJANGO_DEB" >/dev/null 2>&1 &&
    tar xzf python-django_3.2.25.orig.tar.gz)
fi

tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
port=${DJANGO_SUITE_PORT:-}
if [ -z "$port" ]; then
  go build -o "$tmp/handlerdb" ./cmd/handlerdb
  port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$tmp/handlerdb" --datadir="$tmp/data" --port="$port" --handlersocket-port=-1 --memcached-port=-1 \
    --handlersocket-port-wr=-1 --admin-address= >"$tmp/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    "$py" -c "import MySQLdb; MySQLdb.connect(host='127.0.0.1', port=$port, user='root')" 2>/dev/null && break
    sleep 0.1
  done
fi
cat > "$tmp/handlerdb_settings.py" <<SETTINGS
DATABASES = {
    'default': {'ENGINE': 'django.db.backends.mysql', 'HOST': '127.0.0.1', 'PORT': $port,
                'USER': 'root', 'PASSWORD': '', 'NAME': 'django_default'},
    'other': {'ENGINE': 'django.db.backends.mysql', 'HOST': '127.0.0.1', 'PORT': $port,
              'USER': 'root', 'PASSWORD': '', 'NAME': 'django_other'},
}
SECRET_KEY = 'django_tests_secret_key'
PASSWORD_HASHERS = ['django.contrib.auth.hashers.MD5PasswordHasher']
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
SETTINGS
set +e
(cd "$src/tests" && PYTHONPATH="$tmp:.." "$py" runtests.py --settings=handlerdb_settings \
  --parallel 1 --noinput $LABELS) >"$tmp/django.log" 2>&1
set -e
tail -n 3 "$tmp/django.log"
{ grep -E '^(FAIL|ERROR): ' "$tmp/django.log" || true; } | sed -E 's/^(FAIL|ERROR): //' | sort -u >"$tmp/failed"
grep -vE '^(#|$)' testdata/orm/django-expected-failures.txt | sed -E 's/ +#.*$//' | sort -u >"$tmp/expected"
unexpected=$(comm -23 "$tmp/failed" "$tmp/expected")
if ! grep -qE '^Ran [0-9]+ tests' "$tmp/django.log"; then
  echo "django-suite: the suite did not run:"; tail -n 30 "$tmp/django.log"; exit 1
fi
if [ -n "$unexpected" ]; then
  echo "django-suite: failures MariaDB does not have:"; echo "$unexpected"
  grep -A 30 -F "$(echo "$unexpected" | head -1)" "$tmp/django.log" | head -40
  exit 1
fi
echo "django-suite: no failure MariaDB lacks ($(wc -l <"$tmp/failed") failed, all listed)"
