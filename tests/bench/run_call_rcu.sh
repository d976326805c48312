#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run_call_rcu.sh BENCH [rounds]: run call_rcu_bench with the application
# on glibc malloc and on jemalloc (LD_PRELOAD), interleaved A B A B, at 1
# and 2 threads, and print a markdown table of medians with the ratio.
set -eu
bench=$1
rounds=${2:-3}
jemalloc=
for f in /usr/lib/*/libjemalloc.so.2 /usr/lib/libjemalloc.so.2 \
	 /usr/local/lib/libjemalloc.so.2; do
	if [ -e "$f" ]; then jemalloc=$f; break; fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "| threads | allocator | callbacks/s | peak RSS KiB | avg RSS KiB |"
echo "|---|---|---|---|---|"
for t in 1 2; do
	: > $tmp/crb.glibc; : > $tmp/crb.jemalloc
	i=0
	while [ $i -lt "$rounds" ]; do
		"$bench" "$t" 2 >> $tmp/crb.glibc
		if [ -n "$jemalloc" ]; then
			LD_PRELOAD=$jemalloc "$bench" "$t" 2 >> $tmp/crb.jemalloc
		fi
		i=$((i + 1))
	done
	for a in glibc jemalloc; do
		[ -s $tmp/crb.$a ] || continue
		echo "| $t | $a | $(field callbacks_per_s < $tmp/crb.$a | median) |" \
		     "$(field peak_rss_kib < $tmp/crb.$a | median) |" \
		     "$(field avg_rss_kib < $tmp/crb.$a | median) |"
	done
	if [ -s $tmp/crb.jemalloc ]; then
		g=$(field callbacks_per_s < $tmp/crb.glibc | median)
		j=$(field callbacks_per_s < $tmp/crb.jemalloc | median)
		echo "| $t | ratio jemalloc/glibc | $(awk "BEGIN {printf \"%.2f\", $j / $g}") | | |"
	fi
done
