#!/usr/bin/env bash
# Builds kolb (bootstrapping what it needs) and runs the whole test suite.
#   ci/test.sh            all tests
#   ci/test.sh -L unit    only the fast unit tests (any ctest arguments work)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(bash "$root/ci/build.sh" | tail -n 1)
cd "$build"
ctest --output-on-failure --timeout 1200 "$@"
