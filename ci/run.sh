#!/usr/bin/env bash
# Builds kolb (bootstrapping what it needs) and runs a case:
#   ci/run.sh inputs/01_cavity2d_re100.yaml [--set key=value ...]
# Afterwards build/bin/kolb can be called directly.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(bash "$root/ci/build.sh" | tail -n 1)
exec "$build/bin/kolb" run "$@"
