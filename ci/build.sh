#!/usr/bin/env bash
# Bootstraps the dependencies (ci/bootstrap.sh, cached) and builds kolb with
# its tests into ${KOLB_BUILD_DIR:-build}. Safe to re-run: only what changed
# is rebuilt.
#   Kokkos_ROOT=/path/to/kokkos  use your own Kokkos (3.4 or newer) instead
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KOLB_BUILD_DIR:-$root/build}

if [ -n "${Kokkos_ROOT:-}" ]; then
  echo "[build] using Kokkos_ROOT=$Kokkos_ROOT" >&2
  kokkos=$Kokkos_ROOT
else
  kokkos=$(bash "$root/ci/bootstrap.sh" | tail -n 1)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$kokkos" -DKOLB_ENABLE_TESTS=ON ${KOLB_CMAKE_ARGS:-} >&2
cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
echo "$build"
