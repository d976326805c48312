#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run_lfht.sh BENCH [rounds] [seconds]: run lfht_bench (memb flavor) and
# print markdown tables of medians over the rounds (default 3): lookup-only,
# 90/10 and 50/50 read/update throughput at 1 and 2 threads with 1k and 1M
# keys, each run lasting SECONDS (default 1); then the time to shrink a
# 1M-key table from 2^20 buckets to 2^10 and to grow it back.
set -eu
bench=$1
rounds=${2:-3}
secs=${3:-1}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# rounds ARGS...: run the bench ROUNDS times, appending to $tmp/out.
rounds() {
	: > "$tmp/out"
	i=0
	while [ $i -lt "$rounds" ]; do
		"$bench" "$@" >> "$tmp/out"
		i=$((i + 1))
	done
}

echo "| keys | workload | 1 thread Mops/s | 2 threads Mops/s |"
echo "|---|---|---|---|"
for keys in 1000 1000000; do
	for upd in 0 10 50; do
		case $upd in
		0) what="lookup only" ;;
		*) what="$((100 - upd))/$upd read/update" ;;
		esac
		row="| $keys | $what |"
		for t in 1 2; do
			rounds ops "$t" "$keys" "$upd" "$secs"
			row="$row $(field mops < "$tmp/out" | median) |"
		done
		echo "$row"
	done
done

echo
echo "| keys | grow 2^10 → 2^20 buckets (ms) | shrink 2^20 → 2^10 buckets (ms) |"
echo "|---|---|---|"
rounds resize 1000000 1024
echo "| 1000000 | $(field grow_ms < "$tmp/out" | median) |" \
     "$(field shrink_ms < "$tmp/out" | median) |"
