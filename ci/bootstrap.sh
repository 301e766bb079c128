#!/usr/bin/env bash
# Installs kolb's build dependencies from Debian bookworm's package sources and
# builds Kokkos 3.4.01 (Serial + OpenMP) and Kokkos Kernels from the
# `trilinos` source package into a cached prefix. Idempotent: with the
# prefix present it returns in seconds.
#
#   KOLB_DEPS   cache root (default: $HOME/.cache/kolb)
#   Prints the Kokkos prefix on its last line of stdout.
set -euo pipefail

KOLB_DEPS=${KOLB_DEPS:-$HOME/.cache/kolb}
KOKKOS_PREFIX="$KOLB_DEPS/kokkos-3.4.01-host"
SRC_DIR="$KOLB_DEPS/src"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=ci/lib.sh
source "$here/lib.sh"

log() { echo "[bootstrap] $*" >&2; }

apt_packages=(build-essential cmake ninja-build pkg-config
  libopenmpi-dev openmpi-bin libyaml-cpp-dev libgtest-dev googletest
  nlohmann-json3-dev libcli11-dev gnuplot-nox dpkg-dev clang-format ccache python3)
kolb_apt_install "${apt_packages[@]}"

if [ -f "$KOKKOS_PREFIX/.complete" ]; then
  log "Kokkos prefix cached at $KOKKOS_PREFIX"
  kolb_install_kokkos_kernels "$KOKKOS_PREFIX"
  exit 0
fi

kokkos_src=$(kolb_trilinos_package "$SRC_DIR" kokkos)
log "building Kokkos (Serial + OpenMP) from $kokkos_src"
build="$KOLB_DEPS/build/kokkos-host"
rm -rf "$build" "$KOKKOS_PREFIX"
cmake -S "$kokkos_src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" \
  -DCMAKE_CXX_STANDARD=17 \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
  -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF \
  -DKokkos_ENABLE_DEPRECATED_CODE_3=OFF >&2
cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
kolb_install_kokkos "$build" "$KOKKOS_PREFIX" >/dev/null
kolb_install_kokkos_kernels "$KOKKOS_PREFIX"
