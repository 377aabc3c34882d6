#!/usr/bin/env bash
# Issue 21's checks across Stator servers on a three-node Cassandra cluster, in one command.
#
#   bench/servers.sh [--nodes 3] [--servers 2] [--heap 1g] [--dir bench/out/servers-cluster]
#                    [--native-port 19042] [--storage-port 17000] [--faults | --throughput]
#                    [--keep]
#
# Starts NODES Cassandra nodes on 127.0.0.1 ... 127.0.0.NODES (`./stator cassandra start`, in
# --dir, which it empties first, on ports of their own so as not to meet a cluster of `./stator cassandra start`'s
# defaults), then runs stator-server's ClusterServersCheck against them: SERVERS Stator servers,
# each with its own engine over its own CassandraStorage on one store (keyspace stator_servers,
# replication factor min(NODES, 3)), with AWS SDK clients spread over them, checking
#   - linearizability: random reads, puts and conditional puts of a few items from clients on
#     every server, each item's history checked by the Wing-Gong search (LinearizabilityChecker);
#   - transactions: TransactWriteItems transfers through every server conserve the total;
#   - streams: one record per acknowledged write, in per-item order, read through every server.
# and prints operations, acknowledged writes verified and anomalies found (must be 0).
# With --faults (three nodes or more), then ClusterFaultsCheck: three Stator servers as processes
# of their own (`stator serve --storage cassandra`, on a keyspace of their own) under mixed load
# (linearizability histories, transfers, puts read back), while
#   - a Cassandra node is killed with SIGKILL for a minute and started again
#     (`./stator cassandra start --node i`): nothing acknowledged may be lost;
#   - the Stator server holding the Time to Live sweep's lease is killed with SIGKILL: clients
#     fail over, and another server sweeps expired items (how many seconds after the kill);
#   - that server is stopped with SIGSTOP past its lease's term, then continued: each expired
#     item deleted once, one REMOVE record each, no stream record twice;
#   - GetItem and PutItem throughput through 1, 2 and 3 of the servers;
#   - a Cassandra node stopped with SIGSTOP for 20 s and continued: nothing acknowledged lost, no
#     stream record skipped or written twice, read through every server;
# printing the same figures. With --throughput (three nodes or more), only ClusterFaultsCheck's
# throughput through 1, 2 and 3 servers, in two rounds, and no other check: a few minutes.
# Stops the nodes at the end unless --keep. Not part of the build's
# tests; keeps its output in bench/out/servers-*/.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench")"

nodes=3
servers=2
heap=1g
dir=bench/out/servers-cluster
native_port=19042
storage_port=17000
keep=false
faults=false
throughput=false

while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="$2"; shift ;;
    --servers) servers="$2"; shift ;;
    --heap) heap="$2"; shift ;;
    --dir) dir="$2"; shift ;;
    --native-port) native_port="$2"; shift ;;
    --storage-port) storage_port="$2"; shift ;;
    --faults) faults=true ;;
    --throughput) throughput=true ;;
    --keep) keep=true ;;
    -h|--help) sed -n '2,31p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if [[ "$faults" == true || "$throughput" == true ]] && ((nodes < 3)); then
  echo "--faults and --throughput need three nodes or more" \
    "(a quorum of three survives one node killed)" >&2
  exit 2
fi

out="$bench/out/servers-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
[[ "$dir" = /* ]] || dir="$root/$dir"

cd "$root"
if [[ -e "$dir" ]]; then
  # A cluster of an earlier run: started again, its nodes would wait for each other's Accord
  # state for minutes; its data is of no use to this run, so it starts afresh.
  log "removing the cluster of an earlier run in $dir"
  ./stator cassandra stop --dir "$dir" >"$out/cluster.log" 2>&1 || true
  rm -rf "$dir"
fi
log "starting $nodes Cassandra nodes in $dir (log: $out/cluster.log)"
./stator cassandra start --nodes "$nodes" --dir "$dir" --heap "$heap" \
  --native-port "$native_port" --storage-port "$storage_port" >>"$out/cluster.log" 2>&1
if [[ "$keep" != true ]]; then
  trap 'log "stopping the nodes"; ./stator cassandra stop --dir "$dir" >>"$out/cluster.log" 2>&1' EXIT
fi

cluster="$(seq -s, -f "127.0.0.%g:$native_port" 1 "$nodes")"
log "checking across $servers Stator servers on $cluster (log: $out/check.log)"
checks=ClusterServersCheck
if [[ "$faults" == true ]]; then
  checks="$checks,ClusterFaultsCheck"
  log "then the faults (ClusterFaultsCheck), with three Stator server processes"
elif [[ "$throughput" == true ]]; then
  checks="ClusterFaultsCheck#getItemAndPutItemThroughputWithOneTwoAndThreeServers"
  log "throughput only, through three Stator server processes"
fi
status=0
./mvnw -B -ntp -pl stator-core,stator-storage-cassandra,stator-server -am test \
  -Dtest="$checks" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dstator.cluster="$cluster" -Dstator.servers="$servers" \
  -Dstator.cluster.dir="$dir" -Dstator.cluster.storage-port="$storage_port" \
  -Dstator.cluster.heap="$heap" >"$out/check.log" 2>&1 || status=$?
# The checks' own lines, which surefire keeps beside its reports.
for check in ${checks//,/ }; do
  check="${check%%#*}"
  report="stator-server/target/surefire-reports/io.stator.server.e2e.$check-output.txt"
  [[ -f "$report" ]] || continue
  grep -E '^(servers|linearizability|unchecked|transfers|streams|not linearizable|lost|node fault|server fault|pause|node pause|throughput|expired item|stream anomaly):' \
    "$report" || true
done | tee "$out/figures.txt"
if ((status != 0)); then
  log "the check failed (exit $status): see $out/check.log"
fi
exit "$status"
