#!/usr/bin/env bash
# Stator on Cassandra beside the raw CQL floor, in one run (io.stator.bench.CqlFloor).
#
#   bench/cassandra.sh [--dir stator-cassandra] [--contact-points HOST:PORT,...]
#                      [--replication CQL_MAP] [--operations get,put,query,transact,catalog]
#                      (and spread, fence: see CqlFloor)
#                      [--clients 16] [--warmup 5] [--duration 20] [--repeats 1]
#                      [--partitions 1000] [--keyspace stator_bench] [--port 18100]
#
# Against a cluster you started with `./stator cassandra start [--nodes N] [--dir D]` (this
# script never starts or stops a node): starts `./stator serve --storage cassandra` on it
# (keyspace stator_bench, or --keyspace), loads the same 10,000 items (~1 KB, 10 per partition)
# into a Stator table and into a CQL table of Stator's records' shape (keyspace
# stator_bench_floor, the other's name and _floor), then for each operation runs each side in
# turn, CLIENTS threads each sending one request at a time: GetItem, PutItem, Query (the 10 items
# of a partition) and a TransactWriteItems of two puts in different partitions through the AWS
# SDK over HTTP, against a SELECT of one row, an INSERT, a slice SELECT and a BEGIN TRANSACTION
# of two INSERTs sent by the DataStax driver; and (catalog) a PutItem's commit in CQL as Stator
# sends it (LET, SELECT and IF on the item's version, the INSERT inside) beside the same with the
# catalog record's expectation every write carries (a second LET and IF on a catalog-shaped row
# in another partition). Prints each side's throughput, p50/p99, errors and CPU per operation
# (client, server, nodes) and Stator's cost as a multiple of the floor's (the catalog's over the
# item's alone); keeps the output in bench/out/cassandra-*/. Cassandra does not drop a keyspace
# of Accord tables: a run with another replication needs keyspaces of another name (--keyspace).
#
# --dir (default stator-cassandra, as `cassandra start`) finds the nodes: the contact points
# 127.0.0.i:9042 and the pids whose CPU is counted. The replication is `cassandra start`'s
# (SimpleStrategy, factor min(nodes, 3)) unless --replication says otherwise; a keyspace that
# exists keeps its own. Builds the jars when they are older than the sources.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"

dir=stator-cassandra
contact_points=""
replication=""
keyspace=stator_bench
port=18100
java_args=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) dir="$2"; shift ;;
    --contact-points) contact_points="$2"; shift ;;
    --replication) replication="$2"; shift ;;
    --keyspace) keyspace="$2"; shift ;;
    --port) port="$2"; shift ;;
    --operations|--clients|--warmup|--duration|--repeats|--partitions)
      java_args+=("$1" "$2"); shift ;;
    -h|--help) sed -n '2,29p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

out="$bench/out/cassandra-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"
trap 'stop_started 20' EXIT

# ---- the cluster ---------------------------------------------------------------------------

[[ "$dir" = /* ]] || dir="$root/$dir"
cassandra_cluster "$dir"

# ---- the jars ------------------------------------------------------------------------------

jar="$root/stator-bench/target/benchmarks.jar"
if [[ ! -f "$jar" || ! -f "$root/stator-server/target/stator.jar" \
    || -n "$(find "$root" -path "$root/.git" -prune -o \
      \( -path '*/src/main/*' -o -name pom.xml \) -type f -newer "$jar" -print -quit)" ]]; then
  log "building stator.jar and benchmarks.jar"
  (cd "$root" && ./mvnw -q -B -DskipTests package -pl stator-bench -am) >"$out/build.log" 2>&1 \
    || { tail -30 "$out/build.log" >&2; exit 1; }
fi

# ---- the server ----------------------------------------------------------------------------

log "starting ./stator serve --storage cassandra on port $port"
start stator "$port" env STATOR_SKIP_BUILD=1 "$root/stator" serve --storage cassandra \
  --contact-points "$contact_points" --keyspace "$keyspace" --replication "$replication" \
  --port "$port"
wait_ready stator

log "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
java -cp "$jar" io.stator.bench.CqlFloor \
  --endpoint "http://127.0.0.1:$port" --contact-points "$contact_points" \
  --replication "$replication" --floor-keyspace "${keyspace}_floor" --server-pid "${pid_of[stator]}" \
  --node-pids "$(IFS=,; echo "${node_pids[*]}")" \
  ${java_args[@]+"${java_args[@]}"} 2> >(tee "$out/progress.log" >&2) | tee "$out/table.md"
log "figures kept in $out"
