#!/usr/bin/env bash
# Packs a device build for a GPU machine that has no compiler, Kokkos or
# yaml-cpp: kolb, the test executables and the shared libraries they load
# that such a machine lacks (CUDA 11.8 runtime, yaml-cpp), and optionally a
# host-only kolb built for that machine's CPU (the host part's reference,
# issue 15), a second one for x86-64-v4 (AVX-512) and a third, built by
# clang (KOLB_CXX, its OpenMP runtime packed too). One xz archive; the
# test executables link the same library statically, so a large window
# packs ~450 MB into ~12.
#   ci/gpu-bundle.sh BUILD_DIR ARCHIVE [HOST_ONLY_BUILD_DIR [HOST_V4_BUILD_DIR [HOST_CLANG_BUILD_DIR]]]
# On the GPU machine:  mkdir -p /tmp/k && tar -xJf ARCHIVE -C /tmp/k, then
#   LD_LIBRARY_PATH=/tmp/k/lib KOLB_HOST_KOLB=/tmp/k/host/bin/kolb \
#     KOLB_HOST_KOLB_V4=/tmp/k/host-v4/bin/kolb \
#     KOLB_HOST_KOLB_CLANG=/tmp/k/host-clang/bin/kolb bash ci/gpu-check.sh /tmp/k OUT_DIR 16
set -euo pipefail
usage="usage: ci/gpu-bundle.sh BUILD_DIR ARCHIVE [HOST_ONLY_BUILD_DIR [HOST_V4_BUILD_DIR [HOST_CLANG_BUILD_DIR]]]"
build=${1:?$usage}
archive=${2:?$usage}
host=${3:-}
host_v4=${4:-}
host_clang=${5:-}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/tests" "$stage/lib"
cp "$build/bin/kolb" "$stage/bin/"
# The launch timer (tools/kernel_times.cpp), where the build has it.
[ -f "$build/lib/libkolb_kernel_times.so" ] && cp "$build/lib/libkolb_kernel_times.so" "$stage/lib/"
for t in "$build"/tests/test_*; do [ -f "$t" ] && [ -x "$t" ] && cp "$t" "$stage/tests/"; done
# The host-only builds, each as host<suffix>/bin/kolb.
programs=("$build/bin/kolb")
for pair in "host:$host" "host-v4:$host_v4" "host-clang:$host_clang"; do
  [ -n "${pair#*:}" ] || continue
  mkdir -p "$stage/${pair%%:*}/bin"
  cp "${pair#*:}/bin/kolb" "$stage/${pair%%:*}/bin/"
  programs+=("$stage/${pair%%:*}/bin/kolb")
done
# Libraries outside the C/C++ runtime that every Linux image has.
ldd "${programs[@]}" "$stage"/tests/* | awk '/=> \// { print $3 }' |
  sort -u | grep -E 'libcudart|libyaml-cpp|libamdhip|libhsa|libomp' | xargs -r cp -L -t "$stage/lib"
mkdir -p "$(dirname "$archive")"
tar -C "$stage" -cf - . | xz -T"$(nproc)" --lzma2=preset=6,dict=256MiB >"$archive"
echo "[gpu-bundle] $archive: $(du -h "$archive" | cut -f1) ($(ls "$stage/tests" | wc -l) tests, libs: $(ls "$stage/lib" | tr '\n' ' '))"
