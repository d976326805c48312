#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run_queue.sh BENCH [seconds] [reps]: run queue_bench once (it measures
# every configuration REPS times, interleaved) and print a markdown table
# of the median Mops/s, with the minimum and maximum in parentheses.
set -eu
bench=$1
seconds=${2:-0.3}
reps=${3:-7}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

"$bench" "$seconds" "$reps" > "$tmp"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
cell() {
	line=$(grep "^structure=$1 mode=$2 " "$tmp")
	echo "$(echo "$line" | field mops) ($(echo "$line" | field min)-$(echo "$line" | field max))"
}

echo "Mops/s, median of $reps runs of $seconds s each (min-max):"
echo
echo "| structure | calls | 1 thread | 2 threads: 1 pusher + 1 popper | 2 threads: both push and pop |"
echo "|---|---|---|---|---|"
for s in lfstack wfstack wfcqueue rculfqueue; do
	case $s in
	lfstack) calls='`cds_lfs_push` / `cds_lfs_pop_blocking`' ;;
	wfstack) calls='`cds_wfs_push` / `cds_wfs_pop_blocking`' ;;
	wfcqueue) calls='`cds_wfcq_enqueue` / `cds_wfcq_dequeue_blocking`' ;;
	rculfqueue) calls='`cds_lfq_enqueue_rcu` / `cds_lfq_dequeue_rcu` (memb)' ;;
	esac
	echo "| $s | $calls | $(cell $s 1) | $(cell $s 2-split) | $(cell $s 2-mixed) |"
done
