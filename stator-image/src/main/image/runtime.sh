#!/usr/bin/env bash
# Builds the file tree of the image's base layers: a Java runtime linked with only the modules the
# server uses, and the C libraries that runtime and the server's native libraries (RocksDB, Netty's
# epoll transport) load, copied from the building machine. The image needs no base image from a
# registry: it is this tree on an empty base, plus the server's jars.
#
# Usage: runtime.sh OUT_DIR LICENSE   (with jlink from the JDK that runs the build, Java 17 or
# newer). Also empties OUT_DIR/../class-data, which class-data.sh fills after a first image.
set -euo pipefail

out="$1"
license="$2"
rm -rf "$(dirname "$out")/class-data"
mkdir -p "$(dirname "$out")/class-data"
# Jib wants the module's class directory, which a module without sources or resources lacks; it
# stays empty, so that the class path holds no directory with files (an archive cannot).
mkdir -p "$(dirname "$out")/classes"
jlink_bin="${JAVA_HOME:+$JAVA_HOME/bin/}jlink"
rm -rf "$out"
mkdir -p "$out/opt" "$out/tmp" "$out/data" "$out/proc" "$out/dev" "$out/etc" "$out/app"
cp "$license" "$out/app/LICENSE"

# The modules `jdeps --print-module-deps` finds in the server's jar, with java.logging and
# java.management that they require, and jdk.crypto.ec for TLS's elliptic-curve key exchange;
# with the JDK's own class-data archive, which the server's (class-data.sh) builds on.
"$jlink_bin" \
  --add-modules java.base,java.desktop,java.logging,java.management,java.naming,java.net.http,java.security.sasl,java.sql,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.unsupported \
  --strip-debug --no-man-pages --no-header-files --compress=2 --generate-cds-archive \
  --output "$out/opt/java"
# The archive for heaps over 32 GB only (no compressed pointers): 11 MB a container seldom needs.
rm -f "$out/opt/java/lib/server/classes_nocoops.jsa"

# The C libraries: what the launcher and the JVM's own natives load (not the desktop modules'
# graphics natives, which a headless server never loads), and RocksDB's C++ runtime.
libs=$(
  {
    find "$out/opt/java" -type f \( -name 'java' -o -name '*.so' \) \
      ! -name 'libawt*' ! -name 'libjawt.so' ! -name 'libfontmanager.so' ! -name 'libjsound.so' \
      ! -name 'libsplashscreen.so' ! -name 'liblcms.so' ! -name 'libjavajpeg.so' \
      ! -name 'libmlib_image.so' -print0 | xargs -0 ldd 2>/dev/null \
      | awk -v own="$out" '/=> \// && index($3, own) != 1 {print $3}'
    for extra in libstdc++.so.6 libgcc_s.so.1 libm.so.6 libpthread.so.0 librt.so.1 libdl.so.2; do
      # awk reads all of ldconfig's output: quitting at the first match would end ldconfig with
      # SIGPIPE, which pipefail turns into this script's failure whenever ldconfig is not done.
      ldconfig -p | awk -v name="$extra" '$1 == name && /x86-64/ && !found {print $NF; found = 1}'
    done
  } | sort -u
)
for lib in $libs; do
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$lib" "$out$lib"
done
# The dynamic loader the binaries name, and the usual path to it.
loader=$(ldd "$out/opt/java/bin/java" | awk '/ld-linux/{print $1}')
mkdir -p "$out$(dirname "$loader")"
cp -L "$loader" "$out$loader"
printf 'root:x:0:0:root:/root:/sbin/nologin\nstator:x:1000:1000:stator:/data:/sbin/nologin\n' \
  >"$out/etc/passwd"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$out/etc/hosts"
echo "runtime.sh: $(du -sh "$out" | cut -f1) in $out"
