# Shared by the perf scripts (sourced).
# report_field FILE.json 'r["performance"]["mlups"]': one field of a JSON
# file (a run's report.json, a bench.json).
report_field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
