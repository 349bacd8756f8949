#!/usr/bin/env bash
# PostgreSQL (Debian package, 15 on bookworm) as a private cluster of ours:
#   data   $HINDSIGHT_INFRA_DIR/postgres/data     log  $HINDSIGHT_INFRA_DIR/postgres/postgres.log
#   listen 127.0.0.1:55432 only; database `hindsight`, user `hindsight`, password `hindsight`.
# Usage: postgres.sh up|down|status
set -euo pipefail
HS_NAME=postgres
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

DIR="$HS_INFRA_DIR/postgres"
PGDATA="$DIR/data"
LOG="$DIR/postgres.log"
PORT=$HS_POSTGRES_PORT

# The Unix socket is only used by this script (as the cluster's superuser, trust auth); it
# lives in a 0700 directory of ours. Socket paths are limited to ~107 bytes: for a long
# checkout path, use a short directory under /tmp instead.
SOCKET_DIR="$DIR/run"
if ((${#SOCKET_DIR} > 80)); then
    SOCKET_DIR="/tmp/hindsight-pg-$(printf '%s' "$HS_INFRA_DIR" | md5sum | cut -c1-10)"
fi

# Highest installed PostgreSQL major version's bin directory; installs the package if none.
pg_bin_dir() {
    local dir
    dir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n1)
    if [[ -z $dir || ! -x $dir/initdb ]]; then
        hs_apt_install postgresql
        dir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n1)
    fi
    [[ -x $dir/initdb ]] || hs_die "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    printf '%s\n' "$dir"
}

server_pid() { hs_read_pid "$PGDATA/postmaster.pid"; }
is_running() { hs_pid_alive "$(server_pid)" "$PGDATA"; }
is_ready() { "$BIN/pg_isready" -q -h "$HS_HOST" -p "$PORT" -d postgres; }

psql_admin() {
    "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCKET_DIR" -p "$PORT" -U postgres -d postgres
}

init_cluster() {
    [[ -f $PGDATA/PG_VERSION ]] && return 0
    hs_log "creating a new cluster in $PGDATA"
    # initdb into a scratch directory and rename it, so a failed initdb never leaves a
    # half-made cluster that the next `up` would try to start.
    local tmp="$PGDATA.initdb"
    rm -rf "$tmp"
    if ! "${HS_UNPRIVILEGED[@]}" "$BIN/initdb" -D "$tmp" -U postgres \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 \
        >"$DIR/initdb.log" 2>&1; then
        hs_tail_log "$DIR/initdb.log"
        hs_die "initdb failed; see $DIR/initdb.log"
    fi
    mv "$tmp" "$PGDATA"
}

# Role and database for the tests; safe to run on every `up`.
ensure_database() {
    psql_admin <<'SQL'
SELECT 'CREATE ROLE hindsight LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hindsight')\gexec
ALTER ROLE hindsight WITH LOGIN PASSWORD 'hindsight';
SELECT 'CREATE DATABASE hindsight OWNER hindsight' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'hindsight')\gexec
SQL
}

cmd_up() {
    local started
    started=$(hs_now)
    BIN=$(pg_bin_dir)
    mkdir -p "$DIR"
    if is_running; then
        hs_log "already running (pid $(server_pid))"
    else
        hs_check_unprivileged
        hs_require_free_port "$PORT"
        init_cluster
        mkdir -p "$SOCKET_DIR"
        chmod 700 "$SOCKET_DIR"
        # A crash leaves postmaster.pid behind; postgres itself refuses to start only when
        # that pid is still alive, so a stale file is harmless.
        # fsync/full_page_writes off: a throwaway test cluster; a machine crash may lose it.
        local pid
        pid=$(hs_spawn "$LOG" "${HS_UNPRIVILEGED[@]}" "$BIN/postgres" -D "$PGDATA" \
            -c listen_addresses="$HS_HOST" -c port="$PORT" \
            -c unix_socket_directories="$SOCKET_DIR" \
            -c max_connections=200 \
            -c fsync=off -c synchronous_commit=off -c full_page_writes=off)
        hs_log "started pid $pid; waiting for 127.0.0.1:$PORT"
        hs_wait_until "pg_isready on 127.0.0.1:$PORT" "$LOG" "$pid" "$PGDATA" is_ready
    fi
    hs_wait_until "pg_isready on 127.0.0.1:$PORT" "$LOG" "" "" is_ready
    ensure_database
    hs_log "ready in $(hs_elapsed "$started")s: postgresql://hindsight:hindsight@$HS_HOST:$PORT/hindsight ($("$BIN/postgres" --version))"
}

cmd_down() {
    local pid
    pid=$(server_pid)
    if ! is_running; then
        hs_log "not running"
        return 0
    fi
    # SIGINT = "fast" shutdown: roll back open transactions, checkpoint, exit.
    hs_stop_pid "$pid" "$PGDATA" INT
    hs_log "stopped (pid $pid)"
}

cmd_status() {
    if is_running; then
        BIN=$(pg_bin_dir)
        if is_ready; then
            echo "postgres       running  pid $(server_pid)  postgresql://hindsight:hindsight@$HS_HOST:$PORT/hindsight"
        else
            echo "postgres       starting pid $(server_pid)  (not accepting connections yet; log $LOG)"
            return 1
        fi
    else
        echo "postgres       stopped"
        return 1
    fi
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
