#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run_demo.sh RCUTORTURE DEMO FLAVORS: what `scons demo` runs (SConstruct),
# about 10 s in all.  FLAVORS: the flavor names, space-separated, in the
# order the demo runs them.
#
# Steps 1-5: a one-second rcutorture pass per flavor (tests/torture/,
# docs/torture.md), summarised in one line each.  Steps 6-10: examples/demo,
# one second per flavor, ending with its table of reads and grace periods
# per second.  Every step prints a progress line; the script runs them
# all and exits non-zero if any failed.
set -u
torture=$1
demo=$2
flavors=$3
steps=$((2 * $(echo $flavors | wc -w)))
step=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for flavor in $flavors; do
	step=$((step + 1))
	printf 'demo [%d/%d] rcutorture --flavor %s --duration 1 ... ' \
		"$step" "$steps" "$flavor"
	if "$torture" --flavor "$flavor" --duration 1 > "$log" 2>&1; then
		# "rcutorture: SUCCESS: flavor memb, mode sync, N updates, M reads"
		sed -n 's/^rcutorture: SUCCESS: flavor [a-z]*, mode [a-z_]*, /ok, /p' "$log"
	else
		echo "FAILED"
		cat "$log"
		failed=1
	fi
done

"$demo" $((step + 1)) "$steps" || failed=1
exit $failed
