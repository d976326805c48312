#!/bin/sh
# Queries per second of the zoneserver with qsbr and with memb readers,
# measured with dnsperf on 127.0.0.1.  `scons zoneserver-bench` runs it
# as
#   bench.sh ZONESERVER [SECONDS]
# and prints a Markdown table (docs/zoneserver.md shows one).  Each run
# lasts SECONDS (default 5); the runs alternate between the flavors.
# Without dnsperf (Debian package dnsperf) it says so and exits 0.
#
# Workload: a zone of 1000 names (all with an A record, half with AAAA
# too); queries cycling through A and AAAA for those names plus 10%
# unknown names (NXDOMAIN).  The "reload" rows send SIGHUP every 50 ms
# during the run, each reload replacing 100 A records.
set -eu
server=$1
seconds=${2:-5}

if ! command -v dnsperf >/dev/null 2>&1; then
	echo "zoneserver bench skipped: dnsperf is not installed (package dnsperf)"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/zoneserver-bench.XXXXXX")
pid=
cleanup() {
	if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || :; fi
	rm -rf "$work"
}
trap cleanup EXIT

# zone VERSION: the A records of host0..host99 end in VERSION.
write_zone() {
	awk -v v="$1" 'BEGIN {
		for (i = 0; i < 1000; i++) {
			last = i < 100 ? v : i % 250 + 1
			printf "host%d.example.com 300 A 192.0.2.%d\n", i, last
			if (i % 2 == 0)
				printf "host%d.example.com 300 AAAA 2001:db8::%x\n", i, i
		}
	}' > "$work/zone.new"
	mv "$work/zone.new" "$work/zone"
}

write_zone 1
awk 'BEGIN {
	for (i = 0; i < 10000; i++) {
		if (i % 10 == 9)
			printf "nothere%d.example.com A\n", i
		else
			printf "host%d.example.com %s\n", i % 1000, i % 3 ? "A" : "AAAA"
	}
}' > "$work/queries"

# run FLAVOR THREADS RELOAD(yes|no): prints one table row.
run() {
	flavor=$1 threads=$2 reload=$3
	"$server" --zone "$work/zone" --port 0 --threads "$threads" \
		--flavor "$flavor" > "$work/server.log" 2>&1 &
	pid=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' \
			"$work/server.log")
		[ -n "$port" ] && break
		sleep 0.1
	done
	if [ -z "$port" ]; then
		echo "zoneserver did not start:" >&2
		cat "$work/server.log" >&2
		exit 1
	fi
	reloader=
	if [ "$reload" = yes ]; then
		(
			v=1
			while kill -0 "$pid" 2>/dev/null; do
				v=$((v % 200 + 1))
				write_zone "$v"
				kill -HUP "$pid" 2>/dev/null || break
				sleep 0.05
			done
		) &
		reloader=$!
	fi
	dnsperf -s 127.0.0.1 -p "$port" -d "$work/queries" -l "$seconds" \
		-c 8 -T 1 -q 200 > "$work/dnsperf.out" 2>&1
	if [ -n "$reloader" ]; then
		kill "$reloader" 2>/dev/null || :
		wait "$reloader" 2>/dev/null || :
	fi
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	pid=
	if [ "$status" -ne 0 ] || ! grep -q 'poisoned reads 0$' "$work/server.log"; then
		echo "zoneserver failed (status $status):" >&2
		cat "$work/server.log" >&2
		exit 1
	fi
	qps=$(awk '/Queries per second/ { printf "%.0f", $4 }' "$work/dnsperf.out")
	lost=$(awk '/Queries lost/ { print $3 }' "$work/dnsperf.out")
	latency=$(awk '/Average Latency/ { printf "%.3f", $4 * 1000 }' "$work/dnsperf.out")
	reloads=$(grep -c 'reload [0-9]* ok' "$work/server.log" || :)
	if [ -z "$qps" ]; then
		echo "dnsperf failed:" >&2
		cat "$work/dnsperf.out" >&2
		exit 1
	fi
	echo "| $flavor | $threads | $reloads | $qps | $latency | $lost |"
}

for threads in 1 2; do
	for flavor in qsbr memb; do
		run "$flavor" "$threads" no
	done
done > "$work/rows"
for flavor in qsbr memb; do
	run "$flavor" 2 yes
done >> "$work/rows"

version=$(sed -n 's/^Version //p' "$work/dnsperf.out")
echo "zoneserver on 127.0.0.1, dnsperf ${version:-?} for ${seconds} s per run"
echo "(8 clients, 200 queries outstanding), $(nproc) CPUs shared with dnsperf"
echo
echo "| flavor | reader threads | reloads | queries/s | avg latency (ms) | lost |"
echo "|---|---|---|---|---|---|"
cat "$work/rows"
