#!/usr/bin/env bash
# The JMH micro-benchmarks of module stator-bench (wire codec, item and key codecs, expressions,
# engine on memory and RocksDB without HTTP).
#
#   bench/jmh.sh [--quick] [JMH options and benchmark patterns]
#
# e.g. bench/jmh.sh --quick EngineBench       bench/jmh.sh -l (list)      bench/jmh.sh -h
# --quick: 2 warm-up and 3 measured iterations of 1 s, one fork (the classes' defaults: 3 and 5).
# Builds stator-bench/target/benchmarks.jar when it is missing or older than the sources, and
# keeps the output in bench/out/jmh-*.txt. `./mvnw verify` only compiles the benchmarks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/stator-bench/target/benchmarks.jar"

args=()
for a in "$@"; do
  if [[ "$a" == --quick ]]; then args+=(-wi 2 -w 1s -i 3 -r 1s -f 1); else args+=("$a"); fi
done

if [[ ! -f "$jar" || -n "$(find "$root" -path "$root/.git" -prune -o \
    \( -path '*/src/main/*' -o -name pom.xml \) -type f -newer "$jar" -print -quit)" ]]; then
  echo "jmh: building $jar ..." >&2
  (cd "$root" && ./mvnw -q -B -DskipTests package -pl stator-bench -am) >&2
fi

mkdir -p "$root/bench/out"
out="$root/bench/out/jmh-$(date +%Y%m%d-%H%M%S).txt"
java -jar "$jar" "${args[@]}" 2>&1 | tee "$out"
echo "jmh: output kept in $out" >&2
