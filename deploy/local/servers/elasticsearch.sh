#!/usr/bin/env bash
# Elasticsearch 8 single node from Elastic's "integ-test-zip" distribution on Maven Central
# (deploy/local/maven/elasticsearch/pom.xml): the real server, with a reduced module set and
# no security (see deploy/local/README.md for what that leaves out).
#   HTTP 127.0.0.1:9200, transport 127.0.0.1:9300, heap 1 GiB, no auth, plain HTTP
#   data/logs/config under $HINDSIGHT_INFRA_DIR/elasticsearch, stdout in .../elasticsearch.log
# Usage: elasticsearch.sh up|down|status
set -euo pipefail
HS_NAME=elasticsearch
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

DIR="$HS_INFRA_DIR/elasticsearch"
CONF="$DIR/config"
LOG="$DIR/elasticsearch.log"
PIDFILE="$DIR/elasticsearch.pid"          # the launcher (bin/elasticsearch) we started
SERVER_PIDFILE="$DIR/server.pid"          # the server JVM, written by Elasticsearch itself
# Both the launcher (a bash script, then a small JVM) and the server JVM have a path under
# $DIR on their command line; that is how a pid is recognised as ours.
MARK="$DIR/"
ZIP_DIR="$HS_CACHE_DIR/elasticsearch-$HS_ELASTICSEARCH_VERSION-zip"
HOME_DIR="$HS_CACHE_DIR/elasticsearch-$HS_ELASTICSEARCH_VERSION"   # unpacked distribution
PORT=$HS_ELASTICSEARCH_PORT
URL="http://$HS_HOST:$PORT"

launcher_pid() { hs_read_pid "$PIDFILE"; }
server_pid() { hs_read_pid "$SERVER_PIDFILE"; }
# Running while either process lives: a server JVM whose launcher was killed still serves.
is_running() { hs_pid_alive "$(launcher_pid)" "$MARK" || hs_pid_alive "$(server_pid)" "$MARK"; }
shown_pid() { if hs_pid_alive "$(server_pid)" "$MARK"; then server_pid; else launcher_pid; fi; }
is_ready() { hs_http_get "$URL/_cluster/health?wait_for_status=yellow&timeout=1s"; }

# Unpack the distribution into the cache once (marked complete only when fully unpacked).
ensure_distribution() {
    [[ -f $HOME_DIR/.complete ]] && return 0
    hs_maven_fetch "$HS_LOCAL_DIR/maven/elasticsearch" "$ZIP_DIR" \
        -Delasticsearch.version="$HS_ELASTICSEARCH_VERSION"
    (
        flock 9
        [[ -f $HOME_DIR/.complete ]] && exit 0
        local zip tmp
        zip="$ZIP_DIR/libs/elasticsearch-$HS_ELASTICSEARCH_VERSION.zip"
        tmp=$(mktemp -d "$HOME_DIR.partial.XXXXXX")
        hs_log "unpacking $(basename "$zip")"
        if command -v unzip >/dev/null; then
            unzip -q "$zip" -d "$tmp"
        else
            python3 -m zipfile -e "$zip" "$tmp"     # loses the x bits: restored below
        fi
        mv "$tmp/elasticsearch-$HS_ELASTICSEARCH_VERSION"/* "$tmp/"
        rmdir "$tmp/elasticsearch-$HS_ELASTICSEARCH_VERSION"
        chmod +x "$tmp"/bin/*
        touch "$tmp/.complete"
        rm -rf "$HOME_DIR"
        mv "$tmp" "$HOME_DIR"
    ) 9>"$HS_CACHE_DIR/.elasticsearch-unpack.lock"
}

# Our module with the root endpoint (GET / and HEAD /), which this distribution lacks (see
# conf/es-root-module/HindsightRootInfoPlugin.java). Compiled against the distribution's own
# jars into its modules/ directory; rebuilt whenever the source changes.
install_root_module() {
    local java=$1
    local src="$HS_LOCAL_DIR/conf/es-root-module/HindsightRootInfoPlugin.java"
    local mod="$HOME_DIR/modules/hindsight-rest-root"
    local stamp
    stamp="$mod/.source-$(sha256sum "$src" | cut -c1-16)"
    [[ -f $stamp ]] && return 0
    local jdk
    jdk=$(hs_java_home "$java")
    [[ -x $jdk/bin/javac && -x $jdk/bin/jar ]] ||
        hs_die "$jdk/bin/javac not found: a JDK (not only a JRE) is needed"
    (
        flock 9
        [[ -f $stamp ]] && exit 0
        hs_log "building the hindsight-rest-root module"
        local tmp
        tmp=$(mktemp -d "$HS_CACHE_DIR/es-root-module.XXXXXX")
        mkdir -p "$tmp/classes" "$tmp/module"
        if ! "$jdk/bin/javac" --release 17 -proc:none -cp "$HOME_DIR/lib/*" -d "$tmp/classes" "$src" \
            >"$tmp/javac.log" 2>&1; then
            hs_tail_log "$tmp/javac.log"
            hs_die "compiling $src failed (log above)"
        fi
        "$jdk/bin/jar" cf "$tmp/module/hindsight-rest-root.jar" -C "$tmp/classes" .
        {
            echo "description=Root endpoint (GET / and HEAD /) for the local Elasticsearch of deploy/local"
            echo "version=$HS_ELASTICSEARCH_VERSION"
            echo "name=hindsight-rest-root"
            echo "classname=hindsight.local.elasticsearch.HindsightRootInfoPlugin"
            echo "java.version=17"
            echo "elasticsearch.version=$HS_ELASTICSEARCH_VERSION"
        } >"$tmp/module/plugin-descriptor.properties"
        touch "$tmp/module/$(basename "$stamp")"
        rm -rf "$mod"
        mv "$tmp/module" "$mod"
        rm -rf "$tmp"
    ) 9>"$HS_CACHE_DIR/.elasticsearch-unpack.lock"
}

write_config() {
    mkdir -p "$CONF" "$DIR/data" "$DIR/logs" "$DIR/tmp"
    # jvm.options and log4j2.properties come from the distribution (refreshed on every start,
    # so they follow a version change); elasticsearch.yml is ours.
    cp "$HOME_DIR/config/jvm.options" "$HOME_DIR/config/log4j2.properties" "$CONF/"
    mkdir -p "$CONF/jvm.options.d"
    cat >"$CONF/elasticsearch.yml" <<EOF
# Written by deploy/local/servers/elasticsearch.sh on every start; edit the script instead.
cluster.name: hindsight-local
node.name: hindsight-local-1
path.data: $DIR/data
path.logs: $DIR/logs
network.host: $HS_HOST
http.port: $PORT
transport.port: $HS_ELASTICSEARCH_TRANSPORT_PORT
discovery.type: single-node
# The distribution carries the security module; plain HTTP and no auth for local tests.
xpack.security.enabled: false
# Never turn indices read-only because the disk of a CI machine is nearly full.
cluster.routing.allocation.disk.threshold_enabled: false
# Tests may delete indices by wildcard (DELETE /test-*).
action.destructive_requires_name: false
EOF
}

cmd_up() {
    local started
    started=$(hs_now)
    mkdir -p "$DIR"
    if is_running; then
        hs_log "already running (pid $(shown_pid))"
    else
        local java
        java=$(hs_java)
        hs_check_unprivileged
        ensure_distribution
        install_root_module "$java"
        hs_require_free_port "$PORT"
        hs_require_free_port "$HS_ELASTICSEARCH_TRANSPORT_PORT"
        write_config
        rm -f "$SERVER_PIDFILE"
        local pid
        # -XX:-AlwaysPreTouch: Elasticsearch touches the whole heap at start by default; off,
        # the resident size grows with use instead of starting at ~1.3 GB.
        pid=$(ES_JAVA_HOME="$(hs_java_home "$java")" ES_PATH_CONF="$CONF" ES_TMPDIR="$DIR/tmp" \
            ES_JAVA_OPTS="-Xms1g -Xmx1g -XX:-AlwaysPreTouch ${HINDSIGHT_ES_JAVA_OPTS:-}" \
            hs_spawn "$LOG" "${HS_UNPRIVILEGED[@]}" "$HOME_DIR/bin/elasticsearch" -p "$SERVER_PIDFILE")
        echo "$pid" >"$PIDFILE"
        hs_log "started pid $pid; waiting for $URL"
        hs_wait_until "$URL/_cluster/health (yellow or green)" "$LOG" "$pid" "$MARK" is_ready
    fi
    hs_wait_until "$URL/_cluster/health (yellow or green)" "$LOG" "" "" is_ready
    hs_log "ready in $(hs_elapsed "$started")s: $URL (Elasticsearch $HS_ELASTICSEARCH_VERSION)"
}

cmd_down() {
    local pid server
    pid=$(launcher_pid)
    server=$(server_pid)
    if ! is_running; then
        hs_log "not running"
        rm -f "$PIDFILE" "$SERVER_PIDFILE"
        return 0
    fi
    # SIGTERM to the launcher makes it shut the server JVM down cleanly and wait for it.
    # (SIGTERM straight to the server works too, but the launcher then reports exit code 143.)
    hs_stop_pid "$pid" "$MARK" TERM
    hs_stop_pid "$server" "$MARK" TERM
    rm -f "$PIDFILE" "$SERVER_PIDFILE"
    hs_log "stopped (pids $pid $server)"
}

cmd_status() {
    if is_running; then
        if is_ready >/dev/null 2>&1; then
            echo "elasticsearch  running  pid $(shown_pid)  $URL"
        else
            echo "elasticsearch  starting pid $(shown_pid)  (no healthy answer yet; log $LOG)"
            return 1
        fi
    else
        echo "elasticsearch  stopped"
        return 1
    fi
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
