#!/bin/sh
# Runs the zoneserver's parser fuzz target (fuzz_parse.c) for a bounded
# time: `scons fuzz` calls it as
#   fuzz.sh FUZZER WORKDIR SECONDS
# The corpus grows in WORKDIR/corpus across runs (seeded below with a
# few valid queries); a crashing input is saved in WORKDIR/artifacts/
# and the script then exits non-zero.
set -eu
fuzzer=$1
work=$2
seconds=$3

mkdir -p "$work/corpus" "$work/artifacts"
# Seeds, written with printf octal escapes: a plain A query; an AAAA
# query with an EDNS OPT record carrying a cookie; a query with a
# compressed name in the additional section.
header='\000\001\001\000\000\001\000\000\000\000'
www='\003www\007example\003com\000'
printf "$header"'\000\000'"$www"'\000\001\000\001' > "$work/corpus/seed-a"
printf "$header"'\000\001'"$www"'\000\034\000\001\000\000\051\020\000\000\000\200\000\000\014\000\012\000\010\001\002\003\004\005\006\007\010' > "$work/corpus/seed-aaaa-edns"
printf "$header"'\000\001'"$www"'\000\001\000\001\300\014\000\020\000\001\000\000\000\000\000\000' > "$work/corpus/seed-pointer"

echo "fuzzing the query parser for $seconds s (corpus: $work/corpus)"
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-max_len=4200 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$work/corpus"
