#!/usr/bin/env bash
# Builds kolb with its tests and every layout variant (bootstrapping what it
# needs; D3Q27 in the default layouts, whose code D3Q19 runs in every
# layout) and runs the whole test suite.
#   ci/test.sh            all tests
#   ci/test.sh -L unit    only the fast unit tests (any ctest arguments work)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(KOLB_CMAKE_ARGS="-DKOLB_ENABLE_TESTS=ON -DKOLB_ALL_VARIANTS=ON -DKOLB_LAYOUTS_D3Q27=SoA;CSoA8 \
  ${KOLB_CMAKE_ARGS:-}" \
  bash "$root/ci/build.sh" | tail -n 1)
cd "$build"
ctest --output-on-failure --timeout 1200 "$@"
