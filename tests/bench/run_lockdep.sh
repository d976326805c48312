#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run_lockdep.sh LOCKDEP_BENCH LFHT_BENCH LIBRARY [rounds] [seconds]: the
# lock validator's overhead (docs/lockdep.md, "Overhead").  Each workload
# runs ROUNDS times (default 5) without and with LIBRARY preloaded,
# alternately, for SECONDS each (default 1); printed: the median of each
# and the median of the per-round ratios (with / without), as markdown.
set -eu
bench=$1
lfht=$2
lib=$3
rounds=${4:-5}
secs=${5:-1}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# row LABEL FIELD UNIT PROGRAM ARGS...: one table row.
row() {
	label=$1 key=$2 unit=$3
	shift 3
	: > "$tmp/off"
	: > "$tmp/on"
	: > "$tmp/ratio"
	i=0
	while [ $i -lt "$rounds" ]; do
		off=$(env -u LD_PRELOAD "$@" | field "$key")
		on=$(LD_PRELOAD=$lib URCU_LOCKDEP=warn "$@" | field "$key")
		echo "$off" >> "$tmp/off"
		echo "$on" >> "$tmp/on"
		echo "$on $off" | awk '{printf "%.3f\n", $1 / $2}' >> "$tmp/ratio"
		i=$((i + 1))
	done
	echo "| $label | $(median < "$tmp/off") | $(median < "$tmp/on") |" \
	     "$unit | $(median < "$tmp/ratio") |"
}

echo "| workload | without | with validator | unit | ratio (median) |"
echo "|---|---|---|---|---|"
row "read side: 1 reader + synchronize_rcu() loop" sections_per_s \
    "sections/s" "$bench" read 1 "$secs"
row "update side: synchronize_rcu() loop, 1 reader" gps_per_s \
    "grace periods/s" "$bench" read 1 "$secs"
row "hash table, 1 thread, 1k keys, 90/10 lookup/update" mops "Mops/s" \
    "$lfht" ops 1 1000 10 "$secs"
row "hash table, 2 threads, 1M keys, 90/10 lookup/update" mops "Mops/s" \
    "$lfht" ops 2 1000000 10 "$secs"
row "two nested mutexes, the inner one in a read-side section" \
    pairs_per_s "pairs/s" "$bench" mutex "$secs"
