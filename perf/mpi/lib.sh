# Shared by the perf/mpi scripts (sourced, after `set -euo pipefail` and
# with DEFAULT_REPEATS set): their arguments [KOLB] [OUT] [REPEATS], Open
# MPI allowed as root, and reading a run's report.json.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kolb=${1:-$root/build/bin/kolb}
out=${2:-$root/out/mpi}
repeats=${3:-$DEFAULT_REPEATS}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck source=perf/lib.sh
source "$root/perf/lib.sh"
