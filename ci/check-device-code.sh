#!/usr/bin/env bash
# Fails unless the kolb executable and the test executables of a device build
# carry device code for every solver kernel: a build that silently fell back
# to host-only code (no CUDA/HIP backend, wrong compiler) must not pass.
#   ci/check-device-code.sh cuda|hip BUILD_DIR
set -euo pipefail
vendor=$1 build=$2
# WallRowsCollided: D2Q37's wall rows (ThermalWalls) with their collisions,
# one launch on devices. Voxelise: the STL voxeliser's passes (set-up).
kernels=(StreamCollide Propagate Collide AAPull SwapOpposites ScatterPushed AAUnstream
  PeriodicCopy InitializeEquilibrium Moments Observables HaloCopy HaloPack WallRowsCollided
  Voxelise)
binaries=("$build/bin/kolb" "$build/tests/test_conservation" "$build/tests/test_poiseuille")
status=0
for bin in "${binaries[@]}"; do
  [ -x "$bin" ] || { echo "[device-code] missing $bin"; status=1; continue; }
  if [ "$vendor" = cuda ]; then
    arch=${KOLB_CUDA_ARCH:-sm_90}
    elfs=$(cuobjdump --list-elf "$bin" 2>/dev/null || true)
    if ! grep -q "$arch" <<<"$elfs"; then
      echo "[device-code] FAIL: $(basename "$bin") has no $arch device code"; status=1; continue
    fi
    symbols=$(cuobjdump --dump-elf-symbols "$bin" 2>/dev/null || true)
  else
    # HIP: clang-offload-bundler puts the gfx code objects in .hip_fatbin.
    sections=$(objdump -h "$bin")  # (not piped into grep -q: SIGPIPE + pipefail)
    if ! grep -q '\.hip_fatbin' <<<"$sections"; then
      echo "[device-code] FAIL: $(basename "$bin") has no .hip_fatbin section"; status=1; continue
    fi
    symbols=$(objcopy -O binary --only-section=.hip_fatbin "$bin" /dev/stdout | strings || true)
    if ! grep -q "gfx908" <<<"$symbols"; then
      echo "[device-code] FAIL: $(basename "$bin") has no gfx908 code object"; status=1; continue
    fi
  fi
  for k in "${kernels[@]}"; do
    # Kernel symbols are mangled: ...4kolb13StreamCollide..., 4kolb4impl8HaloCopy...,
    # or, inside the site loops, 12FlatSiteLoopINS3_13StreamCollide... or
    # 13FlatSplitLoopINS3_6AAPull..., or inside a reduction over some rows
    # 9TakenRowsINS3_11Observables... (or demangled).
    if ! grep -Eq "(kolb(::|[0-9]+)(impl(::|[0-9]+))?|(Flat(Site|Split)Loop|TakenRows)INS[0-9]*_[0-9]+)$k" <<<"$symbols"; then
      echo "[device-code] FAIL: $(basename "$bin"): no device kernel for kolb::$k"; status=1
    fi
  done
  [ "$status" = 0 ] && echo "[device-code] ok: $(basename "$bin") ($vendor device code, kernels: ${kernels[*]})"
done
exit $status
