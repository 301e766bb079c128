# Shared by the command-line tests (sourced): a fresh work folder, pass/fail
# counters and expect_rc. The caller sets kolb, src and work first and ends
# with `summary`.
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0 passed=0
ok()   { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
expect_rc() {  # expect_rc WANT DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >out.txt 2>err.txt; local rc=$?
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want"; cat out.txt err.txt; fi
}
summary() {
  echo "$passed passed, $failures failed"
  [ "$failures" = 0 ]
}
