#!/usr/bin/env bash
# Bootstraps the dependencies (ci/bootstrap.sh, cached) and builds kolb into
# ${KOLB_BUILD_DIR:-build}: by default what running cases needs (the kolb
# program, SoA and CSoA8 variants). Safe to re-run: only what changed is
# rebuilt, and ccache (installed by the bootstrap) serves unchanged sources.
#   Kokkos_ROOT=/path/to/kokkos  use your own Kokkos (3.4 or newer) instead
#   KOLB_CMAKE_ARGS="..."         more CMake arguments (ci/test.sh adds the tests)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KOLB_BUILD_DIR:-$root/build}

if [ -n "${Kokkos_ROOT:-}" ]; then
  echo "[build] using Kokkos_ROOT=$Kokkos_ROOT" >&2
  kokkos=$Kokkos_ROOT
else
  kokkos=$(bash "$root/ci/bootstrap.sh" | tail -n 1)
fi
# ccache (when CMake finds it) shares its cache between clones in any folder.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
# shellcheck disable=SC2086  # KOLB_CMAKE_ARGS is a list of arguments
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$kokkos" ${KOLB_CMAKE_ARGS:-} >&2
cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
echo "$build"
