# shellcheck shell=bash disable=SC2034  # (settings below are used by the scripts that source this)
# Helpers shared by deploy/local/infra.sh and deploy/local/servers/*.sh.
# Sourced, never executed. Callers run with `set -euo pipefail`.

# ---------------------------------------------------------------------------------------------
# Paths and settings (all overridable from the environment)
# ---------------------------------------------------------------------------------------------
HS_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"      # deploy/local
HS_REPO_ROOT="$(cd "$HS_LOCAL_DIR/../.." && pwd)"
HS_INFRA_DIR="${HINDSIGHT_INFRA_DIR:-$HS_REPO_ROOT/.infra}"          # data, logs, pid files
HS_CACHE_DIR="${HINDSIGHT_CACHE_DIR:-$HOME/.cache/hindsight}"        # downloaded jars / dists
# How long to wait for a server to answer before giving up (seconds).
HS_START_TIMEOUT="${HINDSIGHT_START_TIMEOUT:-180}"
HS_STOP_TIMEOUT="${HINDSIGHT_STOP_TIMEOUT:-60}"

# Pinned versions. Changing one fetches a new set into the cache on the next `up`.
HS_KAFKA_VERSION="${HINDSIGHT_KAFKA_VERSION:-4.3.1}"
HS_LOG4J_VERSION="${HINDSIGHT_LOG4J_VERSION:-2.25.5}"
HS_ELASTICSEARCH_VERSION="${HINDSIGHT_ELASTICSEARCH_VERSION:-8.19.21}"
HS_NEO4J_VERSION="${HINDSIGHT_NEO4J_VERSION:-5.26.30}"
HS_MAVEN_DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

# Fixed addresses: tests read them from $HS_INFRA_DIR/env. Kafka's two ports can be moved
# (with their own HINDSIGHT_INFRA_DIR) to run a second, private broker beside the shared one,
# e.g. for a test that stops and restarts it (tests/support/private_kafka.py).
HS_HOST=127.0.0.1
HS_POSTGRES_PORT=55432
HS_KAFKA_PORT="${HINDSIGHT_KAFKA_PORT:-9092}"
HS_KAFKA_CONTROLLER_PORT="${HINDSIGHT_KAFKA_CONTROLLER_PORT:-9093}"
# Elasticsearch's and Neo4j's too, for the outage tests (tests/support/private_servers.py).
HS_ELASTICSEARCH_PORT="${HINDSIGHT_ELASTICSEARCH_PORT:-9200}"
HS_ELASTICSEARCH_TRANSPORT_PORT="${HINDSIGHT_ELASTICSEARCH_TRANSPORT_PORT:-9300}"
HS_NEO4J_PORT="${HINDSIGHT_NEO4J_PORT:-7687}"

# Unprivileged uid/gid used (inside a user namespace) for servers that refuse to run as root.
HS_UNPRIV_ID=65534   # nobody/nogroup: present in every Debian passwd/group file

HS_NAME="${HS_NAME:-infra}"   # set by each server script; prefixes log lines

# ---------------------------------------------------------------------------------------------
# Logging
# ---------------------------------------------------------------------------------------------
hs_log() { printf '[%s %-13s] %s\n' "$(date +%H:%M:%S)" "$HS_NAME" "$*" >&2; }
hs_die() { hs_log "ERROR: $*"; exit 1; }

# Print the last lines of a log file, indented, to help whoever reads a failure.
hs_tail_log() {
    local file=$1 lines=${2:-25}
    if [[ -s $file ]]; then
        hs_log "last $lines lines of $file:"
        tail -n "$lines" "$file" | sed 's/^/    | /' >&2
    fi
}

hs_now() { date +%s.%N; }
hs_elapsed() { awk -v a="$1" -v b="$(hs_now)" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------------------------------------
# Processes and ports
# ---------------------------------------------------------------------------------------------

# True when PID names a live process (zombies count as dead) whose command line contains
# MARKER (a path inside our infra dir), so that a recycled pid is never mistaken for ours.
hs_pid_alive() {
    local pid=${1:-} marker=${2:-}
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    [[ -r /proc/$pid/stat ]] || return 1
    local state
    state=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [[ -n $state && $state != Z && $state != X ]] || return 1
    if [[ -n $marker ]]; then
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker" || return 1
    fi
    return 0
}

hs_read_pid() {
    if [[ -f $1 ]]; then head -n1 "$1" | tr -dc '0-9'; fi
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
hs_port_open() { (exec 3<>"/dev/tcp/$HS_HOST/$1") 2>/dev/null; }

# Fail early and clearly when a port we need is taken by a process that is not ours.
hs_require_free_port() {
    local port=$1
    if hs_port_open "$port"; then
        local who=""
        command -v ss >/dev/null && who=$(ss -ltnpH "sport = :$port" 2>/dev/null | head -n1)
        hs_die "port $HS_HOST:$port is already in use by another process (not ours): ${who:-unknown}"
    fi
}

# HTTP GET returning the body on stdout; non-zero unless the status is 2xx.
hs_http_get() {
    local url=$1
    if command -v curl >/dev/null; then
        curl -fsS --max-time 5 "$url"
    else
        python3 - "$url" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    sys.stdout.write(r.read().decode())
PY
    fi
}

# hs_wait_until DESCRIPTION LOGFILE PID MARKER CHECK_CMD...
# Polls CHECK_CMD until it succeeds. Fails (with the log's tail) when the process exits or
# when HS_START_TIMEOUT passes.
hs_wait_until() {
    local what=$1 logfile=$2 pid=$3 marker=$4
    shift 4
    local deadline=$((SECONDS + HS_START_TIMEOUT))
    while ! "$@" >/dev/null 2>&1; do
        # Liveness without the marker: `hs_spawn` prints the pid of a forked shell that only
        # becomes the server when it execs, so on a busy machine the first polls can see a
        # live process whose command line does not hold the marker yet. A spawn that fails
        # to exec exits (127), so a dead pid is still caught here.
        if [[ -n $pid ]] && ! hs_pid_alive "$pid" ""; then
            hs_tail_log "$logfile"
            hs_die "$HS_NAME did not come up: its process ($pid) exited while waiting for $what. Log: $logfile"
        fi
        if ((SECONDS >= deadline)); then
            hs_tail_log "$logfile"
            if [[ -n $pid ]]; then
                # Do not leave a half-started server behind for the next `up` to trip over.
                hs_log "stopping the unresponsive process $pid"
                HS_STOP_TIMEOUT=15 hs_stop_pid "$pid" "$marker" TERM
            fi
            hs_die "$HS_NAME did not come up within ${HS_START_TIMEOUT}s (waiting for $what). Log: $logfile"
        fi
        sleep 0.5
    done
}

# hs_stop_pid PID MARKER SIGNAL: send SIGNAL, wait up to HS_STOP_TIMEOUT, then SIGKILL.
hs_stop_pid() {
    local pid=$1 marker=$2 sig=${3:-TERM}
    hs_pid_alive "$pid" "$marker" || return 0
    kill "-$sig" "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + HS_STOP_TIMEOUT))
    while hs_pid_alive "$pid" "$marker"; do
        if ((SECONDS >= deadline)); then
            hs_log "pid $pid did not stop within ${HS_STOP_TIMEOUT}s after SIG$sig; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 1
            break
        fi
        sleep 0.3
    done
}

# Start a command detached from our session (so that it outlives this script and a Ctrl-C
# here), with stdout/stderr appended to LOGFILE; prints its pid.
# `setsid` does not fork here (a background job is not a process-group leader), and the
# commands we start `exec` their server, so the printed pid is the server's own.
hs_spawn() {
    local logfile=$1
    shift
    printf '\n===== %s: %s\n' "$(date -Is)" "$*" >>"$logfile"
    setsid "$@" >>"$logfile" 2>&1 </dev/null &
    echo $!
}

# Command prefix that runs a command as a non-root user when we are root:
#   "${HS_UNPRIVILEGED[@]}" postgres -D ...
# PostgreSQL and Elasticsearch refuse to run as root. Instead of creating a system user (and
# making every directory on the way to the repo readable by it), the command runs in a new
# user namespace where our uid appears as 65534: the servers see a non-root euid, while on the
# file system they still act as us, so data under /root/... or a 0700 checkout keeps working.
HS_UNPRIVILEGED=()
if [[ $(id -u) -eq 0 ]]; then
    HS_UNPRIVILEGED=(unshare --user "--map-user=$HS_UNPRIV_ID" "--map-group=$HS_UNPRIV_ID" --)
fi

# Check once that user namespaces work here (only matters when we are root).
hs_check_unprivileged() {
    [[ $(id -u) -eq 0 ]] || return 0
    unshare --user --map-user="$HS_UNPRIV_ID" --map-group="$HS_UNPRIV_ID" -- true 2>/dev/null ||
        hs_die "running as root, and 'unshare --user' failed: $HS_NAME refuses to run as root. Run infra.sh as a normal user, or enable user namespaces (sysctl user.max_user_namespaces)."
}

# ---------------------------------------------------------------------------------------------
# Packages, Java, Maven
# ---------------------------------------------------------------------------------------------

# apt-get install, when we are root and a package is missing. Waits on apt's own lock, since
# several servers may start at once; runs `apt-get update` only if the first try fails.
hs_apt_install() {
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        hs_die "missing $*; install it (Debian: apt-get install $*) and retry"
    fi
    hs_log "installing $* with apt-get"
    local apt=(apt-get -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends)
    if ! DEBIAN_FRONTEND=noninteractive "${apt[@]}" install "$@" >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=300 update >/dev/null
        DEBIAN_FRONTEND=noninteractive "${apt[@]}" install "$@" >/dev/null
    fi
}

# Print the java binary to use: $HINDSIGHT_JAVA_HOME, else $JAVA_HOME, else `java` on PATH.
# Needs 17+, and a full JDK (the Neo4j launcher compiles a single-file program).
hs_java() {
    local java=""
    if [[ -n ${HINDSIGHT_JAVA_HOME:-} ]]; then
        java="$HINDSIGHT_JAVA_HOME/bin/java"
    elif [[ -n ${JAVA_HOME:-} && -x ${JAVA_HOME}/bin/java ]]; then
        java="$JAVA_HOME/bin/java"
    elif command -v java >/dev/null; then
        java=$(command -v java)
    else
        hs_apt_install openjdk-17-jdk-headless >&2
        java=$(command -v java)
    fi
    [[ -x $java ]] || hs_die "no java binary at $java"
    local major
    major=$("$java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
    [[ ${major%%.*} -ge 17 ]] 2>/dev/null || hs_die "$java is Java ${major:-?}; Java 17 or newer is needed"
    printf '%s\n' "$java"
}

# JAVA_HOME of the java binary chosen by hs_java.
hs_java_home() { dirname "$(dirname "$(readlink -f "$1")")"; }

# hs_maven_fetch POM_DIR DEST_DIR [-Dprop=value...]
# Copies the runtime dependencies listed in POM_DIR/pom.xml into DEST_DIR/libs, through Maven
# (so ~/.m2 caches them). DEST_DIR is complete only once DEST_DIR/.complete exists: an
# interrupted download is redone, never used. Maven runs under a lock because several
# servers may fetch at once and Maven's local repository is not safe for concurrent writers.
hs_maven_fetch() {
    local pom_dir=$1 dest=$2
    shift 2
    [[ -f $dest/.complete ]] && return 0
    command -v mvn >/dev/null || hs_apt_install maven
    mkdir -p "$HS_CACHE_DIR"
    (
        flock 9
        [[ -f $dest/.complete ]] && exit 0
        local started tmp log
        started=$(hs_now)
        tmp=$(mktemp -d "$dest.partial.XXXXXX")
        log="$tmp.mvn.log"
        local mvn_args=(-B -q -Dstyle.color=never -f "$pom_dir/pom.xml")
        [[ -n ${HINDSIGHT_MAVEN_REPO_LOCAL:-} ]] && mvn_args+=("-Dmaven.repo.local=$HINDSIGHT_MAVEN_REPO_LOCAL")
        hs_log "fetching $(basename "$dest") from Maven Central (cached in ~/.m2 and $dest)"
        if ! mvn "${mvn_args[@]}" "$HS_MAVEN_DEPENDENCY_PLUGIN:copy-dependencies" \
            -DincludeScope=runtime -DoutputDirectory="$tmp/libs" "$@" >"$log" 2>&1; then
            hs_tail_log "$log" 40
            rm -rf "$tmp"
            hs_die "Maven could not fetch the dependencies of $pom_dir/pom.xml (log above: $log)"
        fi
        rm -f "$log"
        touch "$tmp/.complete"
        rm -rf "$dest"
        mv "$tmp" "$dest"
        hs_log "fetched $(basename "$dest") in $(hs_elapsed "$started")s"
    ) 9>"$HS_CACHE_DIR/.maven.lock"
}
