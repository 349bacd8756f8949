#!/usr/bin/env bash
# Run a command with the real local servers up, e.g.:
#   deploy/local/with-servers.sh .venv/bin/python -m pytest
# Starts the servers that are not running (deploy/local/infra.sh up), exports the
# HINDSIGHT_* variables from the env file, runs the command, and afterwards stops
# only the servers this script started, so a developer's running servers stay up.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
infra_dir=${HINDSIGHT_INFRA_DIR:-$(cd "$here/../.." && pwd)/.infra}

started=()
for server in postgres kafka elasticsearch neo4j; do
    if ! "$here/infra.sh" status "$server" >/dev/null 2>&1; then
        started+=("$server")
    fi
done

stop_started() {
    if ((${#started[@]})); then
        "$here/infra.sh" down "${started[@]}" || true
    fi
}
trap stop_started EXIT

"$here/infra.sh" up
# shellcheck source=/dev/null
source "$infra_dir/env"
"$@"
