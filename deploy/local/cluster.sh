#!/usr/bin/env bash
# The six cluster services as `hindsight run` processes on the local servers (infra.sh).
#
#   deploy/local/cluster.sh up       start ingest, embed, project, reflect, consolidate, query
#   deploy/local/cluster.sh down     stop them (SIGTERM, then SIGKILL after STOP_TIMEOUT)
#   deploy/local/cluster.sh status   which run, on which port
#   deploy/local/cluster.sh key [TENANT] [SCOPES]
#                                    print a new API key of the cluster (PostgreSQL), for
#                                    TENANT (default) with SCOPES (read,write,admin)
#
# Addresses come from <infra dir>/env (written by `infra.sh up`); any HINDSIGHT_* variable
# already exported wins over the defaults below (backends as in the README's "Run the
# cluster"). Ports: CLUSTER_PORT_BASE (8080) for the gateway (query), the next five for the
# others in the order above; pids and logs in <infra dir>/cluster/.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
INFRA_DIR="${HINDSIGHT_INFRA_DIR:-$ROOT/.infra}"
RUN_DIR="$INFRA_DIR/cluster"
HINDSIGHT="${HINDSIGHT_BIN:-$ROOT/.venv/bin/hindsight}"
PORT_BASE="${CLUSTER_PORT_BASE:-8080}"
START_TIMEOUT="${CLUSTER_START_TIMEOUT:-180}"
STOP_TIMEOUT="${CLUSTER_STOP_TIMEOUT:-60}"
SERVICES=(ingest embed project reflect consolidate query)  # ingest first: query forwards to it

port_of() {
  case "$1" in
    query) echo "$PORT_BASE" ;;
    ingest) echo $((PORT_BASE + 1)) ;;
    embed) echo $((PORT_BASE + 2)) ;;
    project) echo $((PORT_BASE + 3)) ;;
    reflect) echo $((PORT_BASE + 4)) ;;
    consolidate) echo $((PORT_BASE + 5)) ;;
  esac
}

# A pid file counts only while its process is alive and is one of ours (a recycled pid is not).
running_pid() {
  local file="$RUN_DIR/$1.pid" pid
  [[ -f "$file" ]] || return 1
  pid="$(cat "$file")"
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "run $1" || return 1
  [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != "Z" ]] || return 1
  echo "$pid"
}

healthy() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$(port_of "$1")/healthz"; }

cluster_env() {
  [[ -x "$HINDSIGHT" ]] || { echo "cluster: $HINDSIGHT not found (run \`make install\`)" >&2; exit 1; }
  [[ -f "$INFRA_DIR/env" ]] || { echo "cluster: $INFRA_DIR/env missing (run \`make infra-up\`)" >&2; exit 1; }
  # shellcheck disable=SC1091
  . "$INFRA_DIR/env"
  export HINDSIGHT_LOG_BACKEND="${HINDSIGHT_LOG_BACKEND:-kafka}"
  export HINDSIGHT_TEXT_BACKEND="${HINDSIGHT_TEXT_BACKEND:-elasticsearch}"
  export HINDSIGHT_VECTOR_BACKEND="${HINDSIGHT_VECTOR_BACKEND:-elasticsearch}"
  export HINDSIGHT_GRAPH_BACKEND="${HINDSIGHT_GRAPH_BACKEND:-neo4j}"
}

# The key goes to the cluster's store (PostgreSQL); run without the cluster's variables,
# `hindsight keys create` would write to the embedded data directory instead.
key() {
  cluster_env
  "$HINDSIGHT" keys create --tenant "${1:-default}" --scopes "${2:-read,write,admin}"
}

up() {
  cluster_env
  mkdir -p "$RUN_DIR"
  # ingest, reflect and query refuse to start without signing keys; a local cluster gets its
  # own keyring once (mode 0600, beside the pids), unless keys are configured already.
  if [[ -z "${HINDSIGHT_SIGNING_KEYS:-}" && -z "${HINDSIGHT_SIGNING_KEYRING_FILE:-}" ]]; then
    export HINDSIGHT_SIGNING_KEYRING_FILE="$RUN_DIR/signing.json"
    if [[ ! -s "$HINDSIGHT_SIGNING_KEYRING_FILE" ]]; then
      (umask 077 && "$ROOT/.venv/bin/python" -c 'import base64, json, secrets
print(json.dumps({"active": "local1", "keys": {"local1": base64.b64encode(secrets.token_bytes(32)).decode()}}))' \
        >"$HINDSIGHT_SIGNING_KEYRING_FILE")
      echo "cluster: generated signing keys in $HINDSIGHT_SIGNING_KEYRING_FILE (local use only)"
    fi
  fi
  # The master key that wraps the per-user data keys (required in a cluster): one kept
  # beside the processes' logs unless one is given.
  if [[ -z "${HINDSIGHT_MASTER_KEY:-}" && -z "${HINDSIGHT_MASTER_KEY_FILE:-}" ]]; then
    export HINDSIGHT_MASTER_KEY_FILE="$RUN_DIR/master.key"
    [[ -s "$HINDSIGHT_MASTER_KEY_FILE" ]] || (umask 077 && head -c 32 /dev/urandom | base64 > "$HINDSIGHT_MASTER_KEY_FILE")
  fi
  local service pid deadline
  for service in "${SERVICES[@]}"; do
    if pid="$(running_pid "$service")"; then
      echo "$service: already running (pid $pid, port $(port_of "$service"))"
      continue
    fi
    (
      export HINDSIGHT_PORT="$(port_of "$service")"
      [[ "$service" != query ]] || export HINDSIGHT_INGEST_URL="${HINDSIGHT_INGEST_URL:-http://127.0.0.1:$(port_of ingest)}"
      exec setsid "$HINDSIGHT" run "$service" >>"$RUN_DIR/$service.log" 2>&1 </dev/null
    ) &
    echo $! >"$RUN_DIR/$service.pid"
    deadline=$((SECONDS + START_TIMEOUT))
    until healthy "$service"; do
      if ! running_pid "$service" >/dev/null; then
        echo "cluster: $service exited; the end of $RUN_DIR/$service.log:" >&2
        tail -n 30 "$RUN_DIR/$service.log" >&2
        exit 1
      fi
      if ((SECONDS >= deadline)); then
        echo "cluster: $service not healthy after ${START_TIMEOUT}s; see $RUN_DIR/$service.log" >&2
        exit 1
      fi
      sleep 0.3
    done
    echo "$service: up on http://127.0.0.1:$(port_of "$service") (log $RUN_DIR/$service.log)"
  done
  echo "gateway: http://127.0.0.1:$(port_of query)"
  echo "an API key for it: export HINDSIGHT_API_KEY=\$(deploy/local/cluster.sh key default)"
}

down() {
  local service pid deadline
  for service in "${SERVICES[@]}"; do
    pid="$(running_pid "$service")" || { rm -f "$RUN_DIR/$service.pid"; continue; }
    kill -TERM "$pid"
    deadline=$((SECONDS + STOP_TIMEOUT))
    while running_pid "$service" >/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if running_pid "$service" >/dev/null; then
      echo "$service: still running after ${STOP_TIMEOUT}s, SIGKILL" >&2
      kill -KILL "$pid"
    fi
    rm -f "$RUN_DIR/$service.pid"
    echo "$service: stopped"
  done
}

status() {
  local service pid state code=0
  for service in "${SERVICES[@]}"; do
    if pid="$(running_pid "$service")"; then
      state="running (pid $pid)"
      healthy "$service" || { state="$state, /healthz not answering"; code=1; }
    else
      state="stopped"
      code=1
    fi
    echo "$service: $state, port $(port_of "$service")"
  done
  return "$code"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  key) shift; key "$@" ;;
  *) echo "usage: $0 up|down|status|key [TENANT] [SCOPES]" >&2; exit 2 ;;
esac
