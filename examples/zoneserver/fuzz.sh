#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs one of the zoneserver's fuzz targets for a bounded time: `scons
# fuzz` calls it as
#   fuzz.sh FUZZER WORKDIR SECONDS ZONEDIR
# FUZZER is fuzz_answer (one datagram through parsing and answering) or
# fuzz_tcp (a TCP stream through framing and answering), both against the
# zones in ZONEDIR.  The corpus grows in WORKDIR/corpus across runs
# (seeded below with a few valid queries); a crashing input is saved in
# WORKDIR/artifacts/ and the script then exits non-zero.
set -eu
fuzzer=$1
work=$2
seconds=$3
ZS_FUZZ_ZONES=$4
export ZS_FUZZ_ZONES

mkdir -p "$work/corpus" "$work/artifacts"
# Seeds, written with printf octal escapes: a plain A query; an AAAA
# query with an EDNS OPT record carrying a cookie; a query with a
# compressed name in the additional section; a wildcard CNAME chain;
# a referral; MX with additional records.
header='\000\001\001\000\000\001\000\000\000\000'
www='\003www\007example\003com\000'
frame() {	# the TCP fuzzer reads length-prefixed messages
	if [ "${fuzzer##*/}" = fuzz_tcp ]; then
		len=$(printf "$1" | wc -c)
		printf "\\$(printf %03o $((len / 256)))\\$(printf %03o $((len % 256)))"
	fi
	printf "$1"
}
frame "$header"'\000\000'"$www"'\000\001\000\001' > "$work/corpus/seed-a"
frame "$header"'\000\001'"$www"'\000\034\000\001\000\000\051\020\000\000\000\200\000\000\014\000\012\000\010\001\002\003\004\005\006\007\010' > "$work/corpus/seed-aaaa-edns"
frame "$header"'\000\001'"$www"'\000\001\000\001\300\014\000\020\000\001\000\000\000\000\000\000' > "$work/corpus/seed-pointer"
frame "$header"'\000\000\003foo\007wcchain\007example\003com\000\000\017\000\001' > "$work/corpus/seed-wildcard-cname"
frame "$header"'\000\000\001x\005deleg\007example\003com\000\000\001\000\001' > "$work/corpus/seed-referral"
frame "$header"'\000\000\002mx\007example\003com\000\000\017\000\001' > "$work/corpus/seed-mx"

echo "fuzzing ${fuzzer##*/} for $seconds s (corpus: $work/corpus)"
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-max_len=4200 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$work/corpus"
