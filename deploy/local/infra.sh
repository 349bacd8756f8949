#!/usr/bin/env bash
# Real servers on 127.0.0.1 for tests and development, without Docker.
#
#   deploy/local/infra.sh up     [server...]   install if needed, start, wait until healthy
#   deploy/local/infra.sh down   [server...]   stop cleanly
#   deploy/local/infra.sh status [server...]   one line per server; exit 1 if any is not up
#
# Servers: postgres kafka elasticsearch neo4j (default: all). `up` starts them in parallel,
# leaves a running one alone, and writes $HINDSIGHT_INFRA_DIR/env (default <repo>/.infra/env)
# for tests to source. Downloads are cached in ~/.m2 and $HINDSIGHT_CACHE_DIR
# (default ~/.cache/hindsight); data, logs and pid files live in $HINDSIGHT_INFRA_DIR.
# See deploy/local/README.md.
set -euo pipefail
HS_NAME=infra
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

ALL_SERVERS=(postgres kafka elasticsearch neo4j)

usage() {
    # The comment block at the top of this file.
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
    exit 2
}

write_env_file() {
    local env="$HS_INFRA_DIR/env"
    cat >"$env.tmp" <<EOF
# Written by deploy/local/infra.sh up. Source it: . $env
export HINDSIGHT_POSTGRES_DSN=postgresql://hindsight:hindsight@$HS_HOST:$HS_POSTGRES_PORT/hindsight
export HINDSIGHT_KAFKA_BOOTSTRAP=$HS_HOST:$HS_KAFKA_PORT
export HINDSIGHT_ELASTICSEARCH_URL=http://$HS_HOST:$HS_ELASTICSEARCH_PORT
# Neo4j runs with authentication disabled: connect without auth (no USER/PASSWORD variables).
export HINDSIGHT_NEO4J_URI=bolt://$HS_HOST:$HS_NEO4J_PORT
EOF
    mv "$env.tmp" "$env"
    hs_log "wrote $env"
}

# run_all ACTION SERVER...: run servers/<name>.sh ACTION for each server at once; fail if any
# failed (after all have finished, so that every failure is reported).
run_all() {
    local action=$1
    shift
    local -A pids=()
    local name failed=()
    for name in "$@"; do
        "$HS_LOCAL_DIR/servers/$name.sh" "$action" &
        pids[$name]=$!
    done
    for name in "$@"; do
        wait "${pids[$name]}" || failed+=("$name")
    done
    if ((${#failed[@]})); then
        hs_die "$action failed for: ${failed[*]} (see the messages above; logs in $HS_INFRA_DIR/<server>/)"
    fi
}

main() {
    local action=${1:-}
    [[ -n $action ]] || usage
    shift
    local servers=("$@")
    ((${#servers[@]})) || servers=("${ALL_SERVERS[@]}")
    local s
    for s in "${servers[@]}"; do
        [[ " ${ALL_SERVERS[*]} " == *" $s "* ]] || hs_die "unknown server '$s' (known: ${ALL_SERVERS[*]})"
    done

    case "$action" in
        up)
            local started
            started=$(hs_now)
            mkdir -p "$HS_INFRA_DIR"
            run_all up "${servers[@]}"
            write_env_file
            hs_log "all up in $(hs_elapsed "$started")s: ${servers[*]}"
            ;;
        down)
            run_all down "${servers[@]}"
            ;;
        status)
            local rc=0
            for s in "${servers[@]}"; do
                "$HS_LOCAL_DIR/servers/$s.sh" status || rc=1
            done
            return $rc
            ;;
        *) usage ;;
    esac
}

main "$@"
