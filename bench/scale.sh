#!/usr/bin/env bash
# The scale benchmark: what GetItem and Query cost on a large table against a small one, and how
# fast a table loads through BatchWriteItem.
#
#   bench/scale.sh [--items N] [--small N] [--quick] [--storage "memory rocksdb"]
#                  [--duration SECONDS] [--repeats N] [--connections "N ..."] [--heap SIZE]
#                  [--warmup SECONDS] [--port-base PORT]
#
# For each storage (in memory, RocksDB) starts two Stator servers on loopback, loads a table of
# SMALL items (default 100,000) into one and of N items (default 10,000,000; --quick: 1,000,000)
# into the other through BatchWriteItem (scale-load.js: items of ~150 bytes, 10 per partition,
# batches of 25, 32 requests in flight), then drives both with wrk (1 thread; the Lua scripts of
# bench/run.sh, keys drawn over the whole table): GetItem (ConsistentRead) of a random item, and
# Query of the 10 items of a random partition, REPEATS rounds (default 3; --quick 2) of DURATION
# seconds (default 10; --quick 5) per server after a warm-up (see warm(): until the server's
# memory stops growing, at most WARMUP seconds, default 3), alternating which server goes first.
# All of it once for each number of connections in CONNECTIONS (default "8 1"), on the same
# loaded servers: 8 keep the machine busy, so latency there is mostly time in a queue and follows
# the CPU per request; 1 is a caller that sends its next request when the last is answered, as a
# test suite does, and its latency is the request's own time on the wire and in the server. Each
# server is measured once it is idle after its load (its compactions done, at most 10 minutes).
# On RocksDB a short warm-up measures a block cache still filling: --warmup 600 reads the steady
# state.
# Every answer is checked (200, "Item", "Count":10).
#
# Reports per storage, connections and workload: requests per second, p50 and p99 latency
# (median over the rounds), the server's CPU time per request (and the part of it in the
# collector's threads), and the ratio large/small of p50 and of CPU per request (the target:
# within 1.5x); the load rate in items per second; resident memory after the
# load; and the load average. Everything is kept in bench/out/scale-*/ (report.md, logs).
#
# The in-memory server runs with -Xmx HEAP (default 12g), the RocksDB one with -Xmx2g (RocksDB
# keeps its data and cache outside the heap). SCALE_JAVA_OPTS adds JVM flags to every server it
# starts, with "{name}" replaced by the server's name (memory-small, rocksdb-large, ...) and
# "{out}" by the output directory, e.g. a GC log and a flight recording of each server:
#   SCALE_JAVA_OPTS='-Xlog:gc*:file={out}/{name}-gc.log -XX:StartFlightRecording=maxage=4m,\
#   settings=profile,filename={out}/{name}.jfr,dumponexit=true' bench/scale.sh ...
# SCALE_VARIANT, when set, is a shell command run for each loaded server ("{pid}" replaced by
# its process id) after the rounds, which are then run again and reported as storage "NAME*":
# JVM settings that can change at run time, compared on the same loaded servers, e.g.
#   SCALE_VARIANT='jcmd {pid} VM.set_flag MaxHeapFreeRatio 70'
# Needs wrk and node (installed when missing, as by bench/run.sh). Every server it starts is
# stopped and every data directory removed on exit.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"

items=10000000
small=100000
duration=10
repeats=3
warmup=3
connections="8 1"
storages="memory rocksdb"
heap=12g
port_base=18100

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) items=1000000; duration=5; repeats=2 ;;
    --items) items="$2"; shift ;;
    --small) small="$2"; shift ;;
    --storage) storages="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --repeats) repeats="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --heap) heap="$2"; shift ;;
    --port-base) port_base="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    -h|--help) sed -n '2,43p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out="$bench/out/scale-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$out/log.txt" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"

command -v wrk >/dev/null || { log "installing wrk"; apt_install wrk; }
command -v node >/dev/null || { log "installing node"; apt_install nodejs; }

# ---- processes -----------------------------------------------------------------------------

stop_all() {
  stop_started 30
  rm -rf "$out/data-small" "$out/data-large"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
ticks_per_second=$(getconf CLK_TCK)

# One wrk run at $conns connections; appends "storage connections workload size requests
# duration_us p50 p99 bad errors cpu_s gc_s" to results.tsv when RECORD is given.
measure() { # storage workload size seconds [record]
  local storage="$1" workload="$2" size="$3" seconds="$4" record="${5:-}"
  local name="$storage-$size" expect='"Item"'
  [[ $workload == query ]] && expect='"Count":10'
  local partitions=$(( ${size_items[$size]} / 10 ))
  local logfile="$out/wrk-$workload-$name-$(date +%H%M%S).txt"
  local before after gc_before gc_after line cpu gc
  before=$(cpu_ticks "${pid_of[$name]}")
  gc_before=$(gc_ticks "${pid_of[$name]}")
  timeout $((seconds + 30)) wrk -t1 -c"$conns" -d"${seconds}s" --timeout 10s \
    -s "$bench/wrk/$workload.lua" "http://127.0.0.1:${port_of[$name]}/" -- \
    "expect=$expect" "partitions=$partitions" >"$logfile" 2>"$logfile.err" || true
  after=$(cpu_ticks "${pid_of[$name]}")
  gc_after=$(gc_ticks "${pid_of[$name]}")
  line=$(grep '^RESULT' "$logfile" || echo "RESULT requests=0 duration_us=1 p50_us=0 p99_us=0 bad=0 socket_errors=1")
  cpu=$(awk -v a="$before" -v b="$after" -v t="$ticks_per_second" 'BEGIN {printf "%.2f", (b - a) / t}')
  gc=$(awk -v a="$gc_before" -v b="$gc_after" -v t="$ticks_per_second" \
    'BEGIN {printf "%.2f", (b - a) / t}')
  [[ -n $record ]] || return 0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$conns" "$workload" "$size" \
    "$(field "$line" requests)" "$(field "$line" duration_us)" "$(field "$line" p50_us)" \
    "$(field "$line" p99_us)" "$(field "$line" bad)" "$(field "$line" socket_errors)" "$cpu" "$gc" \
    >>"$out/results.tsv"
  log "  $workload $name, $conns connections: $(field "$line" requests) requests," \
    "p50 $(field "$line" p50_us) us, p99 $(field "$line" p99_us) us, bad $(field "$line" bad)," \
    "server CPU ${cpu}s (GC ${gc}s), load $(loadavg)"
}

# Waits until the server is idle (under 5% of a core over 2 s; at most 10 minutes): the
# collector's and RocksDB's work after a load (flushes, and compactions of the files the load
# wrote) would otherwise run during the measurement and count in its CPU and latency.
settle() { # name
  local name="$1" start=$SECONDS before after
  sleep 5
  while (( SECONDS - start < 600 )); do
    before=$(cpu_ticks "${pid_of[$name]}")
    sleep 2
    after=$(cpu_ticks "${pid_of[$name]}")
    (( (after - before) * 100 < 10 * ticks_per_second )) && break
  done
  log "  $name idle after $((SECONDS - start)) s"
}

# Warms a server up for a workload: runs of up to 10 s until the server's resident memory grew
# less than 1% in the last one (its caches have stopped filling), WARMUP seconds at most. A
# RocksDB table of 10M items has ~400,000 data blocks to bring into the block cache, which random
# reads of a few thousand a second take minutes to do; throughput alone varies too much from one
# run to the next on two shared cores to tell when it is done.
warm() { # storage workload size seconds
  local left="$4" slice before now pid="${pid_of[$1-$3]}"
  before=$(rss_mb "$pid")
  while (( left > 0 )); do
    slice=$(( left < 10 ? left : 10 ))
    measure "$1" "$2" "$3" "$slice"
    left=$(( left - slice ))
    now=$(rss_mb "$pid")
    (( now * 100 < before * 101 )) && break
    before=$now
  done
  (( $4 > 10 )) && log "  warmed $2 $1-$3 for $(( $4 - left )) s, RSS $now MB" || true
}

rounds() { # the warm-up and the measured rounds of both workloads on both servers of $storage
  local first=1
  for conns in $connections; do
    for workload in get query; do
      # The caches a workload warms stay warm for the next number of connections: a short warm-up.
      for size in small large; do
        warm "$storage" "$workload" "$size" "$(( first || warmup < 3 ? warmup : 3 ))"
      done
      for rep in $(seq 1 "$repeats"); do
        if (( rep % 2 == 1 )); then order="small large"; else order="large small"; fi
        for size in $order; do measure "$storage" "$workload" "$size" "$duration" record; done
      done
    done
    first=0
  done
}

# ---- main ----------------------------------------------------------------------------------

log "building Stator when stale"
(cd "$root" && ./stator --version) >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }

declare -A size_items=([small]=$small [large]=$items)
printf '%s\t' storage connections workload size requests duration_us p50_us p99_us bad \
  socket_errors cpu_s >"$out/results.tsv"
printf 'gc_s\n' >>"$out/results.tsv"
printf 'storage\tsize\titems\tseconds\titems_per_s\trss_mb\tload\n' >"$out/loads.tsv"
log "scale benchmark: small $small items, large $items items, storages: $storages," \
  "connections: $connections;" \
  "$(nproc) cores, load $(loadavg)"

for storage in $storages; do
  port=$port_base
  for size in small large; do
    name="$storage-$size"
    extra="${SCALE_JAVA_OPTS:-}"
    extra="${extra//\{name\}/$name}"
    extra="${extra//\{out\}/$out}"
    if [[ $storage == memory ]]; then
      start "$name" "$port" env STATOR_SKIP_BUILD=1 JAVA_OPTS="-Xmx$heap $extra" "$root/stator" \
        serve --port "$port" --in-memory
    else
      start "$name" "$port" env STATOR_SKIP_BUILD=1 JAVA_OPTS="-Xmx2g $extra" "$root/stator" \
        serve --port "$port" --data-dir "$out/data-$size"
    fi
    wait_ready "$name"
    port=$((port + 1))
    log "loading ${size_items[$size]} items into $name"
    line=$(node "$bench/scale-load.js" "http://127.0.0.1:${port_of[$name]}" \
      --items "${size_items[$size]}" 2>>"$out/load-$name.err") \
      || { log "load of $name failed: $(tail -3 "$out/load-$name.err")"; exit 1; }
    settle "$name"
    log "  $line, RSS $(rss_mb "${pid_of[$name]}") MB, load $(loadavg)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$storage" "$size" "$(field "$line" items)" \
      "$(field "$line" seconds)" "$(field "$line" items_per_s)" "$(rss_mb "${pid_of[$name]}")" \
      "$(loadavg)" >>"$out/loads.tsv"
  done
  label=$storage
  rounds
  if [[ -n ${SCALE_VARIANT:-} ]]; then
    for size in small large; do
      log "variant on $storage-$size: ${SCALE_VARIANT//\{pid\}/${pid_of[$storage-$size]}}"
      bash -c "${SCALE_VARIANT//\{pid\}/${pid_of[$storage-$size]}}" >>"$out/variant.log" 2>&1 \
        || log "  the variant's command failed (see variant.log)"
    done
    label="$storage*"
    rounds
  fi
  for size in small large; do
    log "RSS of $storage-$size at the end: $(rss_mb "${pid_of[$storage-$size]}") MB"
  done
  stop_all
done

node - "$out/results.tsv" "$out/loads.tsv" "$small" "$items" "$(loadavg)" >"$out/report.md" <<'EOF'
const fs = require('fs')
const [results, loads, small, large, load] = process.argv.slice(2)
const rows = t => fs.readFileSync(t, 'utf8').trim().split('\n').slice(1).map(l => l.split('\t'))
const median = xs => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const fmt = n => Number(n).toLocaleString('en-US')
const r = rows(results).map(([storage, connections, workload, size, requests, us, p50, p99, bad,
  errors, cpu, gc]) => ({ storage, connections, workload, size, requests: +requests, us: +us,
  p50: +p50, p99: +p99, bad: +bad + +errors, cpu: +cpu, gc: +gc }))
const out = []
out.push(`Small: ${fmt(small)} items; large: ${fmt(large)} items. Load average at the end: ${load}.`)
out.push('')
out.push('| storage | connections | workload | items | req/s | p50 ms | p99 ms | CPU µs/req | ' +
  'of it GC | valid | large/small: p50, CPU/req |')
out.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|')
const rowsOf = (storage, connections, workload) => {
  const stats = {}
  for (const size of ['small', 'large']) {
    const runs = r.filter(x => x.storage === storage && x.connections === connections &&
      x.workload === workload && x.size === size)
    if (runs.length === 0) continue
    stats[size] = {
      rps: median(runs.map(x => x.requests / (x.us / 1e6))),
      p50: median(runs.map(x => x.p50)) / 1000,
      p99: median(runs.map(x => x.p99)) / 1000,
      cpu: median(runs.map(x => x.requests ? x.cpu * 1e6 / x.requests : NaN)),
      gc: median(runs.map(x => x.requests ? x.gc * 1e6 / x.requests : NaN)),
      valid: runs.every(x => x.bad === 0 && x.requests > 0),
    }
  }
  for (const size of ['small', 'large']) {
    const s = stats[size]
    if (!s) continue
    const ratio = size === 'large' && stats.small
      ? `${(s.p50 / stats.small.p50).toFixed(2)}×, ${(s.cpu / stats.small.cpu).toFixed(2)}×`
      : ''
    out.push(`| ${storage} | ${connections} | ${workload} | ` +
      `${fmt(size === 'small' ? small : large)} | ${Math.round(s.rps)} | ` +
      `${s.p50.toFixed(3)} | ${s.p99.toFixed(2)} | ${s.cpu.toFixed(1)} | ${s.gc.toFixed(1)} | ` +
      `${s.valid ? 'yes' : 'INVALID'} | ${ratio} |`)
  }
}
for (const storage of [...new Set(r.map(x => x.storage))]) {
  for (const connections of [...new Set(r.map(x => x.connections))]) {
    for (const workload of ['get', 'query']) rowsOf(storage, connections, workload)
  }
}
out.push('')
out.push('| storage | items | BatchWriteItem load, s | items/s | RSS after load, MB | load average |')
out.push('|---|---:|---:|---:|---:|---|')
for (const [storage, size, items, seconds, rate, rss, l] of rows(loads)) {
  out.push(`| ${storage} | ${fmt(items)} | ${seconds} | ${fmt(rate)} | ${rss} | ${l} |`)
}
console.log(out.join('\n'))
EOF
cat "$out/report.md"
log "kept in $out"
