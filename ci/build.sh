#!/usr/bin/env bash
# Bootstraps the dependencies (ci/bootstrap.sh, cached) and builds kolb into
# ${KOLB_BUILD_DIR:-build}: by default what running cases needs (the kolb
# program, SoA and CSoA8 variants). Safe to re-run: only what changed is
# rebuilt, and ccache (installed by the bootstrap) serves unchanged sources.
#   Kokkos_ROOT=/path/to/kokkos  use your own Kokkos (3.4 or newer) instead
#   KOLB_CMAKE_ARGS="..."         more CMake arguments (ci/test.sh adds the tests)
#   KOLB_TARGETS="a b"            build only these targets (default: all)
#   KOLB_CXX=clang++-15           the host compiler (clang++-N: clang-N and
#                                 libomp-N-dev are installed when missing); one
#                                 KOLB_BUILD_DIR per compiler. Kokkos stays the
#                                 bootstrap's g++ build: both use libomp then.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KOLB_BUILD_DIR:-$root/build}

compiler=()
if [ -n "${KOLB_CXX:-}" ]; then
  if [[ "$KOLB_CXX" =~ ^clang\+\+-([0-9]+)$ ]]; then
    # shellcheck source=ci/lib.sh
    source "$root/ci/lib.sh"
    kolb_apt_install "clang-${BASH_REMATCH[1]}" "libomp-${BASH_REMATCH[1]}-dev"
  fi
  cxx=$(command -v "$KOLB_CXX") || { echo "[build] KOLB_CXX=$KOLB_CXX: no such compiler" >&2; exit 2; }
  compiler=(-DCMAKE_CXX_COMPILER="$cxx")
fi

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
  -DCMAKE_PREFIX_PATH="$kokkos" "${compiler[@]}" ${KOLB_CMAKE_ARGS:-} >&2
# shellcheck disable=SC2086  # KOLB_TARGETS is a list of targets
cmake --build "$build" -j "${KOLB_JOBS:-2}" ${KOLB_TARGETS:+--target $KOLB_TARGETS} >&2
echo "$build"
