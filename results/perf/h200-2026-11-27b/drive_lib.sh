# Sourced by drive3.sh-drive5.sh (after the runs, they shared these lines):
# unpacks the archive $1 into $k, output folder $2 as $o, the CUDA kolb as
# $g and the host-only one as $h, and defines run().
k=$(mktemp -d); tar -xJf "$1" -C "$k"; o=$2; mkdir -p "$o"
export LD_LIBRARY_PATH=$k/lib KOLB_SOURCE_DIR=$PWD KOLB_NODE_TRACE=50
g=$k/bin/kolb h=$k/host/bin/kolb
common=(-q --set output.vtk_every=0 --set output.observables_every=0 --set execution.rebalance=0)
run_timeout=60 trace_lines=2
run() {  # run NAME KOLB ENV... -- ARGS...: one `kolb run`, its MLUPS and last trace lines
  local name=$1 kolb=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local t0=$SECONDS
  timeout "$run_timeout" env "${envs[@]}" "$kolb" run "$@" "${common[@]}" \
    --set output.folder=/tmp/o/$name >"$o/$name.log" 2>&1
  echo "$name ($((SECONDS - t0)) s): $(grep -E '^done' "$o/$name.log" | sed 's/.*the steps alone/steps alone/')"
  grep "node trace" "$o/$name.log" | tail -n "$trace_lines"
  rm -rf /tmp/o/$name
}
