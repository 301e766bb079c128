#!/usr/bin/env bash
# Builds Kokkos 3.4.01 for a device backend from Debian's trilinos source,
# cached like the host build (ci/bootstrap.sh):
#   ci/bootstrap-device.sh cuda   CUDA 11.8 (nvidia-cuda-toolkit, contrib/non-free),
#                                 g++-11 host compiler, nvcc_wrapper, sm_90 (Hopper)
#   ci/bootstrap-device.sh hip    Debian's hipcc (ROCm 5.2), gfx908 (MI100)
# Both also enable OpenMP and Serial (the host side of the heterogeneous node).
# Prints the prefix on its last line of stdout. No GPU is needed to build.
set -euo pipefail
vendor=${1:?usage: ci/bootstrap-device.sh cuda|hip}
KOLB_DEPS=${KOLB_DEPS:-$HOME/.cache/kolb}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=ci/lib.sh
source "$here/lib.sh"
log() { echo "[bootstrap-$vendor] $*" >&2; }

# The CUDA architecture. Kokkos 3.4 knows no Hopper flag (its newest is
# AMPERE86), refuses to configure CUDA without one, and its Cuda::initialize
# aborts when the compiled major compute capability differs from the
# device's, so an AMPERE80 build would abort on an H100/H200. kolb therefore
# adds the option Kokkos 4 has, HOPPER90 (-arch=sm_90), to the unpacked 3.4
# CMake files (see add_hopper_arch below; docs/gpu-clusters.md).
KOLB_CUDA_ARCH=${KOLB_CUDA_ARCH:-sm_90}
case "$KOLB_CUDA_ARCH" in
  sm_90) kokkos_cuda_arch=HOPPER90 ;;
  sm_80) kokkos_cuda_arch=AMPERE80 ;;
  sm_86) kokkos_cuda_arch=AMPERE86 ;;
  sm_70) kokkos_cuda_arch=VOLTA70 ;;
  *) echo "KOLB_CUDA_ARCH=$KOLB_CUDA_ARCH: use sm_90, sm_86, sm_80 or sm_70" >&2; exit 2 ;;
esac

# Teaches Kokkos 3.4's CMake the Hopper architecture exactly as Kokkos 4
# spells it: an option, its -arch=sm_90 flag and its config macro. Nothing
# in Kokkos 3.4's code tests architecture macros, so this is all it takes.
add_hopper_arch() {
  local src=$1
  grep -q HOPPER90 "$src/cmake/kokkos_arch.cmake" && return 0
  sed -i '/^KOKKOS_ARCH_OPTION(AMPERE86 /a KOKKOS_ARCH_OPTION(HOPPER90        GPU  "NVIDIA Hopper generation CC 9.0 (added by kolb)")' \
    "$src/cmake/kokkos_arch.cmake"
  sed -i '/^CHECK_CUDA_ARCH(AMPERE86  sm_86)/a CHECK_CUDA_ARCH(HOPPER90  sm_90)' "$src/cmake/kokkos_arch.cmake"
  sed -i '/^#cmakedefine KOKKOS_ARCH_AMPERE86/a #cmakedefine KOKKOS_ARCH_HOPPER90' "$src/cmake/KokkosCore_config.h.in"
  grep -q "CHECK_CUDA_ARCH(HOPPER90" "$src/cmake/kokkos_arch.cmake" || { echo "could not add HOPPER90" >&2; exit 1; }
}

case "$vendor" in
  cuda)
    kolb_enable_sources
    kolb_apt_install g++-11 nvidia-cuda-toolkit
    prefix="$KOLB_DEPS/kokkos-3.4.01-cuda-$KOLB_CUDA_ARCH"
    ;;
  hip)
    kolb_apt_install hipcc libamdhip64-dev rocm-device-libs libomp-15-dev
    prefix="$KOLB_DEPS/kokkos-3.4.01-hip-gfx908"
    ;;
  *) echo "unknown vendor '$vendor' (cuda or hip)" >&2; exit 2 ;;
esac

# Kokkos Kernels for this prefix, compiled like Kokkos (nvcc_wrapper / hipcc).
kernels() {
  if [ "$vendor" = cuda ]; then
    kolb_cuda_env
    kolb_install_kokkos_kernels "$prefix" \
      -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DCUDAToolkit_ROOT=/usr \
      -DCMAKE_CXX_FLAGS="-arch=$KOLB_CUDA_ARCH"
  else
    HCC_AMDGPU_TARGET=gfx908 kolb_install_kokkos_kernels "$prefix" -DCMAKE_CXX_COMPILER=hipcc
  fi
}

if [ -f "$prefix/.complete" ]; then
  log "Kokkos prefix cached at $prefix"
  kernels
  exit 0
fi

kokkos_src=$(kolb_trilinos_package "$KOLB_DEPS/src" kokkos)
build="$KOLB_DEPS/build/kokkos-$vendor"
rm -rf "$build" "$prefix"
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
  -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
  -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF -DKokkos_ENABLE_DEPRECATED_CODE_3=OFF)
if [ "$vendor" = cuda ]; then
  log "building Kokkos (CUDA $KOLB_CUDA_ARCH + OpenMP + Serial) from $kokkos_src"
  add_hopper_arch "$kokkos_src"
  # The explicit -arch also replaces nvcc_wrapper's default (sm_35, which CUDA
  # 11.8 rejects) in CMake's compiler checks; the wrapper drops the identical
  # flag Kokkos adds.
  kolb_cuda_env
  cmake -S "$kokkos_src" -B "$build" "${common[@]}" \
    -DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper" -DCUDAToolkit_ROOT=/usr \
    -DCMAKE_CXX_FLAGS="-arch=$KOLB_CUDA_ARCH" \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_${kokkos_cuda_arch}=ON >&2
  cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
else
  log "building Kokkos (HIP gfx908 + OpenMP + Serial) from $kokkos_src"
  export HCC_AMDGPU_TARGET=gfx908  # no GPU probing by hipcc
  cmake -S "$kokkos_src" -B "$build" "${common[@]}" \
    -DCMAKE_CXX_COMPILER=hipcc \
    -DKokkos_ENABLE_HIP=ON -DKokkos_ARCH_VEGA908=ON >&2
  cmake --build "$build" -j "${KOLB_JOBS:-2}" >&2
fi
kolb_install_kokkos "$build" "$prefix" >/dev/null
kernels
