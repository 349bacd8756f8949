#!/usr/bin/env bash
# Apache Kafka 4.x as a single KRaft node (broker + controller in one JVM), from the jars on
# Maven Central (deploy/local/maven/kafka/pom.xml):
#   PLAINTEXT 127.0.0.1:9092, controller 127.0.0.1:9093, heap 512 MiB
#   data $HINDSIGHT_INFRA_DIR/kafka/data (formatted on first start), log .../kafka/kafka.log
# Usage: kafka.sh up|down|status
set -euo pipefail
HS_NAME=kafka
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

DIR="$HS_INFRA_DIR/kafka"
DATA="$DIR/data"
LOG="$DIR/kafka.log"
PIDFILE="$DIR/kafka.pid"
CONFIG="$DIR/server.properties"
LIBS="$HS_CACHE_DIR/kafka-$HS_KAFKA_VERSION-log4j-$HS_LOG4J_VERSION"
PORT=$HS_KAFKA_PORT
CONTROLLER_PORT=$HS_KAFKA_CONTROLLER_PORT

server_pid() { hs_read_pid "$PIDFILE"; }
is_running() { hs_pid_alive "$(server_pid)" "$CONFIG"; }
# The port opens before the broker has caught up with the metadata log; the log line is the
# broker's own "done starting" signal. Only lines written since our start count.
is_ready() {
    hs_port_open "$PORT" && tail -c +"$LOG_OFFSET" "$LOG" | grep -q 'Kafka Server started'
}

write_config() {
    cat >"$CONFIG" <<EOF
# Written by deploy/local/servers/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HS_HOST:$CONTROLLER_PORT
listeners=PLAINTEXT://$HS_HOST:$PORT,CONTROLLER://$HS_HOST:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HS_HOST:$PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$DATA

# One node: every internal topic has a single replica.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# Fewer partitions for the internal topics (default 50): much faster first consumer group /
# transaction on a 2-core machine.
offsets.topic.num.partitions=4
transaction.state.log.num.partitions=4
share.coordinator.state.topic.num.partitions=4
# Consumer groups form at once instead of waiting 3 s for more members.
group.initial.rebalance.delay.ms=0
num.partitions=1
auto.create.topics.enable=true
EOF
}

# Kafka cluster ids are 16 random bytes in URL-safe base64 without padding (22 characters).
# Kafka's own generator also avoids a leading '-' (it would read as a command-line option).
new_cluster_id() {
    local id
    while :; do
        id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
        [[ $id != -* ]] && break
    done
    printf '%s\n' "$id"
}

format_storage() {
    [[ -f $DATA/meta.properties ]] && return 0
    local id
    id=$(new_cluster_id)
    hs_log "formatting storage in $DATA (cluster id $id)"
    rm -rf "$DATA"
    # Static voters (controller.quorum.voters): format WITHOUT --standalone.
    if ! "$JAVA" -Xmx256m -cp "$LIBS/libs/*" -Dlog4j2.configurationFile="$HS_LOCAL_DIR/conf/kafka-log4j2.properties" \
        kafka.tools.StorageTool format -t "$id" -c "$CONFIG" >"$DIR/format.log" 2>&1; then
        hs_tail_log "$DIR/format.log"
        rm -rf "$DATA"
        hs_die "formatting the Kafka storage failed; see $DIR/format.log"
    fi
}

cmd_up() {
    local started
    started=$(hs_now)
    mkdir -p "$DIR"
    if is_running; then
        hs_log "already running (pid $(server_pid))"
        LOG_OFFSET=1
    else
        JAVA=$(hs_java)
        hs_maven_fetch "$HS_LOCAL_DIR/maven/kafka" "$LIBS" \
            -Dkafka.version="$HS_KAFKA_VERSION" -Dlog4j.version="$HS_LOG4J_VERSION"
        hs_require_free_port "$PORT"
        hs_require_free_port "$CONTROLLER_PORT"
        write_config
        format_storage
        touch "$LOG"
        LOG_OFFSET=$(($(stat -c %s "$LOG") + 1))
        local pid
        # JVM flags follow Kafka's own kafka-server-start.sh / kafka-run-class.sh defaults,
        # with a smaller heap.
        pid=$(hs_spawn "$LOG" "$JAVA" -Xms256m -Xmx512m \
            -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
            -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
            -Dlog4j2.configurationFile="$HS_LOCAL_DIR/conf/kafka-log4j2.properties" \
            -Dkafka.logs.dir="$DIR" \
            -cp "$LIBS/libs/*" kafka.Kafka "$CONFIG")
        echo "$pid" >"$PIDFILE"
        hs_log "started pid $pid; waiting for 127.0.0.1:$PORT"
        hs_wait_until "the broker on 127.0.0.1:$PORT" "$LOG" "$pid" "$CONFIG" is_ready
    fi
    hs_wait_until "127.0.0.1:$PORT" "$LOG" "" "" hs_port_open "$PORT"
    hs_log "ready in $(hs_elapsed "$started")s: PLAINTEXT $HS_HOST:$PORT (Kafka $HS_KAFKA_VERSION)"
}

cmd_down() {
    local pid
    pid=$(server_pid)
    if ! is_running; then
        hs_log "not running"
        rm -f "$PIDFILE"
        return 0
    fi
    # SIGTERM = controlled shutdown (flushes logs, writes a clean-shutdown marker).
    hs_stop_pid "$pid" "$CONFIG" TERM
    rm -f "$PIDFILE"
    hs_log "stopped (pid $pid)"
}

cmd_status() {
    if is_running; then
        if hs_port_open "$PORT"; then
            echo "kafka          running  pid $(server_pid)  $HS_HOST:$PORT"
        else
            echo "kafka          starting pid $(server_pid)  (port $PORT not open yet; log $LOG)"
            return 1
        fi
    else
        echo "kafka          stopped"
        return 1
    fi
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
