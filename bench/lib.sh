# Shared by the bench scripts (sourced, not run): installing tools, finding the nodes of a local
# Cassandra cluster, starting the servers on loopback, waiting for them, stopping them, and
# reading their figures from /proc and wrk's RESULT lines. The caller sets $bench (this
# directory) and $out (its output directory) and defines log().

# apt-get install PACKAGES, refreshing the package lists once when the first try fails.
apt_install() {
  local as_root=()
  [[ $(id -u) -ne 0 ]] && as_root=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get install -y -q "$@" >"$out/apt.log" 2>&1 \
    || { "${as_root[@]}" apt-get update -q >>"$out/apt.log" 2>&1 \
         && "${as_root[@]}" apt-get install -y -q "$@" >>"$out/apt.log" 2>&1; }
}

# dynalite 4 from npm into bench/node_modules, unless it is there.
need_dynalite() {
  if [[ ! -f "$bench/node_modules/dynalite/cli.js" ]]; then
    log "installing dynalite into bench/node_modules"
    npm install --prefix "$bench" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error dynalite@4 >"$out/npm.log" 2>&1
  fi
}

# The running nodes of a cluster of `./stator cassandra start --dir DIR`: sets node_pids (their
# pids, whose CPU the scripts count), and, unless the caller set them, contact_points
# (127.0.0.i:9042 for each node) and replication (start's: SimpleStrategy, factor min(nodes, 3)).
# Exits when no node runs and no contact point was named.
cassandra_cluster() {
  local dir="$1" node pid
  node_pids=()
  for node in "$dir"/node-*; do
    [[ -f "$node/cassandra.pid" ]] || continue
    pid="$(tr -d '[:space:]' <"$node/cassandra.pid")"
    kill -0 "$pid" 2>/dev/null || continue
    node_pids+=("$pid")
  done
  local nodes=${#node_pids[@]}
  if [[ -z "${contact_points:-}" ]]; then
    if ((nodes == 0)); then
      echo "no running node in $dir: start a cluster with ./stator cassandra start --dir $dir" \
        "[--nodes N], or name one with --contact-points" >&2
      exit 1
    fi
    contact_points="$(seq -s, -f '127.0.0.%g:9042' 1 "$nodes")"
  fi
  if [[ -z "${replication:-}" ]]; then
    local rf=$((nodes > 3 ? 3 : (nodes > 0 ? nodes : 1)))
    replication="{'class': 'SimpleStrategy', 'replication_factor': $rf}"
  fi
  log "cluster: $nodes node(s) of $dir running, contact points $contact_points," \
    "replication $replication"
}

declare -A pid_of port_of
started=()

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() { # name port command...: runs the command in the background, its output in $out/NAME.log
  local name="$1" port="$2"
  shift 2
  port_free "$port" || { echo "port $port is taken; use --port-base" >&2; exit 1; }
  "$@" >"$out/$name.log" 2>&1 &
  pid_of[$name]=$!
  port_of[$name]=$port
  started+=("$!")
}

wait_ready() { # name: any HTTP answer on / within 60 s
  local name="$1"
  for _ in $(seq 1 600); do
    if [[ "$(curl -s -o /dev/null -m 1 -w '%{http_code}' "http://127.0.0.1:${port_of[$name]}/")" \
        != 000 ]]; then
      return 0
    fi
    kill -0 "${pid_of[$name]}" 2>/dev/null || { log "$name died: $(tail -5 "$out/$name.log")"; exit 1; }
    sleep 0.1
  done
  log "$name did not answer within 60 s"
  exit 1
}

stop_started() { # seconds: TERM to every started process, KILL to those alive after SECONDS
  local pid
  for pid in "${started[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 $(($1 * 10))); do
    local alive=0
    for pid in "${started[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [[ $alive == 0 ]] && break
    sleep 0.1
  done
  for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  started=()
}

# CPU ticks (user + system) of a process and its children (nginx's worker).
cpu_ticks() {
  local total=0 p
  for p in "$1" $(pgrep -P "$1" || true); do
    [[ -r /proc/$p/stat ]] || continue
    total=$((total + $(sed 's/.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
  done
  echo "$total"
}

# CPU ticks (user + system) of a Java process's collector threads (G1's and the parallel GC
# workers): the share of the server's CPU that garbage collection takes.
gc_ticks() {
  local total=0 t
  for t in /proc/"$1"/task/*; do
    [[ -r $t/comm ]] || continue
    case "$(cat "$t/comm" 2>/dev/null)" in
      "G1 "*|"GC Thread"*) total=$((total + $(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}'))) ;;
    esac
  done
  echo "$total"
}

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo "?"; }

field() { sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" <<<" $1"; } # line name: NAME=value
