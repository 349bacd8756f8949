#!/usr/bin/env bash
# Neo4j 5 community (5.26 LTS line) with Bolt on 127.0.0.1:7687 and no HTTP server, started
# through the test harness from Maven Central (deploy/local/maven/neo4j/pom.xml) by the
# single-file program deploy/local/conf/Neo4jBolt.java. Authentication is OFF (the harness
# default): connect with no auth. The graph is emptied by every restart (harness behaviour).
#   work dir $HINDSIGHT_INFRA_DIR/neo4j/work, log .../neo4j/neo4j.log, heap 512 MiB
# Usage: neo4j.sh up|down|status
set -euo pipefail
HS_NAME=neo4j
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

DIR="$HS_INFRA_DIR/neo4j"
WORK="$DIR/work"
LOG="$DIR/neo4j.log"
PIDFILE="$DIR/neo4j.pid"
LIBS="$HS_CACHE_DIR/neo4j-$HS_NEO4J_VERSION"
PORT=$HS_NEO4J_PORT
MARK="$WORK"

server_pid() { hs_read_pid "$PIDFILE"; }
is_running() { hs_pid_alive "$(server_pid)" "$MARK"; }
# Neo4jBolt.java prints this line once the database and the Bolt connector are up.
is_ready() {
    hs_port_open "$PORT" && tail -c +"$LOG_OFFSET" "$LOG" | grep -q '^NEO4J READY'
}

cmd_up() {
    local started
    started=$(hs_now)
    mkdir -p "$DIR"
    if is_running; then
        hs_log "already running (pid $(server_pid))"
    else
        local java
        java=$(hs_java)
        hs_maven_fetch "$HS_LOCAL_DIR/maven/neo4j" "$LIBS" -Dneo4j.version="$HS_NEO4J_VERSION"
        hs_require_free_port "$PORT"
        # The harness makes a fresh random store folder per start and deletes it on a clean
        # stop; a killed server leaves its folder behind, so clear the work dir first.
        rm -rf "$WORK"
        mkdir -p "$WORK"
        touch "$LOG"
        LOG_OFFSET=$(($(stat -c %s "$LOG") + 1))
        local pid
        # Single-file source launch: the JDK compiles Neo4jBolt.java in memory (~2 s).
        pid=$(hs_spawn "$LOG" "$java" -Xms256m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
            -Djava.awt.headless=true \
            -cp "$LIBS/libs/*" "$HS_LOCAL_DIR/conf/Neo4jBolt.java" "$WORK" "$PORT")
        echo "$pid" >"$PIDFILE"
        hs_log "started pid $pid; waiting for bolt://127.0.0.1:$PORT"
        hs_wait_until "Bolt on 127.0.0.1:$PORT" "$LOG" "$pid" "$MARK" is_ready
    fi
    hs_wait_until "Bolt on 127.0.0.1:$PORT" "$LOG" "" "" hs_port_open "$PORT"
    hs_log "ready in $(hs_elapsed "$started")s: bolt://$HS_HOST:$PORT, no auth (Neo4j $HS_NEO4J_VERSION)"
}

cmd_down() {
    local pid
    pid=$(server_pid)
    if ! is_running; then
        hs_log "not running"
        rm -f "$PIDFILE"
        return 0
    fi
    # SIGTERM runs Neo4jBolt's shutdown hook: the database closes cleanly.
    hs_stop_pid "$pid" "$MARK" TERM
    rm -f "$PIDFILE"
    hs_log "stopped (pid $pid)"
}

cmd_status() {
    if is_running; then
        if hs_port_open "$PORT"; then
            echo "neo4j          running  pid $(server_pid)  bolt://$HS_HOST:$PORT (no auth)"
        else
            echo "neo4j          starting pid $(server_pid)  (Bolt port not open yet; log $LOG)"
            return 1
        fi
    else
        echo "neo4j          stopped"
        return 1
    fi
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
