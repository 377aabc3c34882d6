#!/usr/bin/env bash
# Makes what lets the image's server start fast, from a first build of the image (the same jars,
# at the same paths and times, as the final one), into a directory the final build adds as a
# layer:
#   opt/stator/native/   RocksDB's native library, which the server then loads from the library
#                        path instead of copying it out of its jar at every start;
#   opt/stator/stator.jsa  a class-data archive of the classes a server loads, recorded by a
#                        training run of the first image's own runtime and jars, so that a start
#                        maps them instead of loading and verifying them (about 1.5-2 s to under
#                        one second to the first answer, see docs/performance.md).
# The archive can only be recorded where the image's files can run as the image's root: as root,
# with unshare and chroot. Elsewhere the image is built without it and starts without it (the
# JVM ignores a missing archive).
#
# The training run is the first image's own entrypoint (its JVM flags, class path and main
# class, read from the image's config), recording the archive instead of mapping it.
#
# Usage: class-data.sh FIRST_IMAGE.tar OUT_DIR
set -euo pipefail

tar_file="$1"
out="$2"
work="$(mktemp -d)"
trap 'umount -R "$work/root/proc" "$work/root/dev" 2>/dev/null || true; rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out/opt/stator/native" "$work/layout" "$work/root"

tar -xf "$tar_file" -C "$work/layout"
blobs="$work/layout/blobs/sha256"
digests() { grep -o 'sha256:[0-9a-f]*' "$1" | cut -d: -f2; }
manifest="$blobs/$(digests "$work/layout/index.json" | head -1)"
# the config is the manifest's first digest, the layers the rest, in order
for layer in $(digests "$manifest" | tail -n +2); do
  tar --warning=no-unknown-keyword -xzf "$blobs/$layer" -C "$work/root"
done
config="$blobs/$(digests "$manifest" | head -1)"
# "Entrypoint":["/opt/java/bin/java","-XX:...",...,"io.stator.server.Main"]: its strings (none
# holds a quote or a comma), without the archive it is to record
entrypoint=()
while IFS= read -r arg; do
  [[ "$arg" == -XX:SharedArchiveFile=* ]] || entrypoint+=("$arg")
done < <(grep -o '"Entrypoint":\[[^]]*\]' "$config" | sed 's/^"Entrypoint":\[//; s/\]$//' \
  | tr ',' '\n' | tr -d '"')
[[ ${#entrypoint[@]} -ge 2 ]] || { echo "class-data.sh: no entrypoint in $config" >&2; exit 1; }

java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$java_bin" -cp "$work/root/app/libs/*" io.stator.server.Main native-library \
  "$out/opt/stator/native"

if [[ "$(id -u)" != 0 ]] || ! command -v unshare >/dev/null || ! command -v chroot >/dev/null; then
  echo "class-data.sh: no class-data archive (recording it needs root, unshare and chroot)"
  exit 0
fi
mkdir -p "$work/root/opt/stator"
cp -r "$out/opt/stator/native" "$work/root/opt/stator/native"
chmod 777 "$work/root/tmp" "$work/root/data"
# A failed run (a directory with files on the class path, say, which an archive cannot hold)
# only means an image without the archive.
unshare --mount sh -c "mount -t proc proc '$work/root/proc' \
  && mount --rbind /dev '$work/root/dev' \
  && exec chroot --userspec=1000:1000 '$work/root' ${entrypoint[0]} \
    -XX:ArchiveClassesAtExit=/tmp/stator.jsa ${entrypoint[*]:1} class-data-training" || true
if [[ -s "$work/root/tmp/stator.jsa" ]]; then
  cp "$work/root/tmp/stator.jsa" "$out/opt/stator/stator.jsa"
  echo "class-data.sh: $(du -h "$out/opt/stator/stator.jsa" | cut -f1) class-data archive"
else
  echo "class-data.sh: the training run recorded no archive"
fi
