# Shared by bench/run.sh, bench/scale.sh and bench/lifecycle.sh (sourced, not run): installing
# tools, starting the servers on loopback, waiting for them, stopping them, and reading their
# figures from /proc and wrk's RESULT lines. The caller sets $bench (this directory) and $out (its
# output directory) and defines log().

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
