#!/usr/bin/env bash
# Set up what the web tests need: Chromium (for the Playwright browser tests), a PostgreSQL
# server on loopback (for the API tests against PostgreSQL) and redis-server (started by the
# Redis pub/sub test itself). Idempotent; run as root, and
# `source` it so that RULEBOX_TEST_POSTGRES_URL is exported into the calling shell.
#
#   source .ci/setup-web.sh      # exports RULEBOX_TEST_POSTGRES_URL
#
# Any step that fails only skips the tests that need it; this script never aborts the caller.

_rb_setup_web() {
    local need=()
    [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
    ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
    # the Redis pub/sub test starts a redis-server of its own (tests/server/test_cluster_redis.py)
    command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
    if [ "${#need[@]}" -gt 0 ]; then
        echo "setup-web: installing ${need[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null 2>&1 || true
        apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
            || echo "setup-web: apt-get install ${need[*]} failed" >&2
    fi

    # The Python side (psycopg, playwright) comes from the project's extras; when this is
    # sourced inside an active virtual environment, make sure they are there too.
    if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
        local py="$VIRTUAL_ENV/bin/python"
        "$py" -c "import psycopg" 2>/dev/null || "$py" -m pip install -q "psycopg[binary]>=3.1" \
            >/dev/null 2>&1 || echo "setup-web: pip install psycopg failed" >&2
        "$py" -c "import playwright" 2>/dev/null || "$py" -m pip install -q "playwright>=1.40" \
            >/dev/null 2>&1 || echo "setup-web: pip install playwright failed" >&2
    fi

    # PostgreSQL: a cluster of our own on loopback, port 55432, owned by the postgres user.
    local bindir
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    if [ -z "$bindir" ]; then
        echo "setup-web: no PostgreSQL; the PostgreSQL tests will be skipped" >&2
        return 0
    fi
    local port=55432 data=/var/tmp/rulebox-pg
    if ! "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
        if [ ! -s "$data/PG_VERSION" ]; then
            mkdir -p "$data" && chown postgres:postgres "$data" && chmod 700 "$data"
            su postgres -s /bin/sh -c "'$bindir/initdb' -D '$data' -A trust -U postgres" \
                >/dev/null 2>&1 || { echo "setup-web: initdb failed" >&2; return 0; }
        fi
        su postgres -s /bin/sh -c "'$bindir/pg_ctl' -D '$data' -l '$data/server.log' -w \
            -o \"-h 127.0.0.1 -p $port -k /tmp\" start" >/dev/null 2>&1 \
            || { echo "setup-web: PostgreSQL did not start (see $data/server.log)" >&2; return 0; }
    fi
    "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname='rulebox_test'" 2>/dev/null | grep -q 1 \
        || "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -qc \
            "CREATE DATABASE rulebox_test" >/dev/null 2>&1 \
        || echo "setup-web: could not create database rulebox_test" >&2
    export RULEBOX_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/rulebox_test"
    echo "RULEBOX_TEST_POSTGRES_URL=$RULEBOX_TEST_POSTGRES_URL"
}
_rb_setup_web
unset -f _rb_setup_web
