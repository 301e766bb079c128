#!/usr/bin/env bash
# Compiles the whole solver (library, kolb executable, test executables) for
# a GPU backend and checks that the binaries really contain device code.
# No GPU is needed (or used): this proves the single source builds for
#   ci/device-build.sh cuda   NVIDIA, CUDA 11.8, sm_90 (KOLB_CUDA_ARCH)
#   ci/device-build.sh hip    AMD, ROCm 5.2 (Debian), gfx908
# Host code for x86-64-v3 (KOLB_HOST_ARCH): GPU nodes' CPUs have AVX2 and FMA,
# and the FMA units let the host blocks give the GPU's bits at full speed.
# KOLB_CMAKE_ARGS adds CMake arguments (e.g. fewer layouts for a quick build).
set -euo pipefail
vendor=${1:?usage: ci/device-build.sh cuda|hip}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KOLB_DEVICE_BUILD_DIR:-$root/build-$vendor}
prefix=$(bash "$root/ci/bootstrap-device.sh" "$vendor" | tail -n 1)
start=$(date +%s)
# ccache (CMakeLists.txt: depend mode for the device compilers) shares its
# cache between clones in any folder.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

args=(-S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
  -DKOLB_ENABLE_TESTS=ON -DKOLB_ENABLE_NATIVE=OFF -DKOLB_HOST_ARCH="${KOLB_HOST_ARCH:-x86-64-v3}")
if [ "$vendor" = cuda ]; then
  source "$root/ci/lib.sh"
  kolb_cuda_env
  arch=${KOLB_CUDA_ARCH:-sm_90}
  cmake "${args[@]}" -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS="-arch=$arch" \
    ${KOLB_CMAKE_ARGS:-}
else
  # Tells hipcc the target, so it does not probe for a GPU (rocm_agent_enumerator).
  export HCC_AMDGPU_TARGET=gfx908
  cmake "${args[@]}" -DCMAKE_CXX_COMPILER=hipcc ${KOLB_CMAKE_ARGS:-}
fi
# KOLB_TARGETS: only these targets (the device-code check needs kolb_app,
# test_conservation and test_poiseuille).
# shellcheck disable=SC2086
cmake --build "$build" -j "${KOLB_JOBS:-2}" ${KOLB_TARGETS:+--target $KOLB_TARGETS}
echo "[device-build] $vendor: compiled in $(( $(date +%s) - start )) s"

bash "$root/ci/check-device-code.sh" "$vendor" "$build"
