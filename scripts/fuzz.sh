#!/usr/bin/env bash
# make fuzz: fuzz every Fuzz function of the module for FUZZTIME each,
# found rather than listed, so that none is forgotten; -fuzz takes a
# regexp, so each name is anchored to match one target.
#
# A target fails on a finding: go test writes the failing input to
# testdata/fuzz/<name>/, where `make test` runs it from then on. Go 1.26's
# coordinator can also end a run with a bare "context deadline exceeded"
# at the -fuzztime boundary when a worker is slow to stop (golang/go#75804,
# fixed in Go 1.27): no input is written, nothing is reproducible. Such a
# run is reported as a flake once the target's corpus, run again as plain
# tests, passes; every other failure fails the run, after all targets ran.
set -uo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=() flaked=() passed=0
for dir in $(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do
  for name in $(grep -h -o '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go | sed 's/^func //'); do
    echo "== $dir $name"
    if "$GO" test -run='^$' -fuzz="^$name\$" -fuzztime="$FUZZTIME" "$dir" 2>&1 | tee "$out"; then
      passed=$((passed + 1))
    elif ! grep -q 'Failing input written to' "$out" && tail -n 5 "$out" | grep -q '^    context deadline exceeded$' &&
      "$GO" test -count=1 -run="^$name\$" "$dir" > /dev/null; then
      flaked+=("$dir $name")
    else
      failed+=("$dir $name")
    fi
  done
done
echo "fuzz: $passed passed, ${#flaked[@]} stopped by golang/go#75804 (corpus passes), ${#failed[@]} failed"
for t in "${flaked[@]}"; do echo "  flake: $t"; done
for t in "${failed[@]}"; do echo "  FAILED: $t"; done
[ ${#failed[@]} -eq 0 ]
