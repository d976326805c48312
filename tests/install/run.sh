#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Use a staged installation the way a user would: for each pkg-config
# module, compile liburcu_program.c with the flags pkg-config gives, as C
# and as C++, and once more as C linked with `pkg-config --static` against
# the staged archives (which checks the order of the .pc's libraries),
# then run each program against the staged libraries.  Also check that
# the man pages were installed, through one of them.
#
# usage: run.sh STAGE PREFIX LIBDIR OUTDIR SOURCE MODULE:CPPFLAGS...
#   STAGE is the DESTDIR the install went to; PREFIX and LIBDIR are the
#   values the .pc files were written for.
# Environment: CC and CXX (default gcc and g++); EXTRA_FLAGS, added to
# every compile and link (the sanitizer flags of instrumented builds).
set -u

if [ $# -lt 6 ]; then
	echo "usage: $0 STAGE PREFIX LIBDIR OUTDIR SOURCE MODULE:CPPFLAGS..." >&2
	exit 2
fi
stage=$1 prefix=$2 libdir=$3 outdir=$4 source=$5
shift 5
read -ra extra_flags <<< "${EXTRA_FLAGS:-}"

# Only the staged .pc files count: a system-wide liburcu must not answer.
export PKG_CONFIG_LIBDIR="$stage$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
unset PKG_CONFIG_PATH
export LD_LIBRARY_PATH="$stage$libdir"
echo "install test: prefix $prefix, libdir $libdir, staged in $stage"
mkdir -p "$outdir"

# Print the liburcu-looking headers a compile used from outside the
# stage, such as a system liburcu standing in for a header the install
# left out.
foreign_headers() {
	tr -s ' ' '\n' < "$1" | grep '\.h$' \
		| grep -E '/urcu/|/urcu[^/]*\.h$' | grep -v "^$stage/"
}

# Compile, check and run one module in one language (c, c++, or static:
# C against the archives); return non-zero on any failure.
check_one() {
	local module=$1 lang=$2
	local exe="$outdir/$module-$lang"
	local pkgconfig_output flag
	local -a cppflags pcflags compile
	read -ra cppflags <<< "$3"
	# Builds written for liburcu often require a minimum version.
	pkg-config --exists "$module >= 0.11" || {
		echo "$module does not satisfy '>= 0.11'"
		return 1
	}
	if [ "$lang" = static ]; then
		pkgconfig_output=$(pkg-config --static --cflags --libs "$module") || return 1
	else
		pkgconfig_output=$(pkg-config --cflags --libs "$module") || return 1
	fi
	for flag in $pkgconfig_output; do
		# Static: this project's libraries as their archives, in the
		# order pkg-config gives; system libraries stay shared.
		case $lang:$flag in
		static:-lurcu*) pcflags+=("-l:lib${flag#-l}.a") ;;
		*) pcflags+=("$flag") ;;
		esac
	done
	if [ "$lang" = c++ ]; then
		compile=("${CXX:-g++}" -x c++)
	else
		compile=("${CC:-gcc}")
	fi
	compile+=(-Wall -Wextra -Werror "${extra_flags[@]}" "${cppflags[@]}"
		-MD -MF "$exe.d" "$source" -o "$exe" "${pcflags[@]}")
	echo "${compile[*]}"
	"${compile[@]}" || return 1
	if foreign_headers "$exe.d"; then
		echo "the program used the headers above instead of staged ones"
		return 1
	fi
	"$exe"
}

passed=0 failed=0
for case in "$@"; do
	module=${case%%:*}
	for lang in c c++ static; do
		if check_one "$module" "$lang" "${case#*:}"; then
			echo "PASS: $module ($lang)"
			passed=$((passed + 1))
		else
			echo "FAIL: $module ($lang)"
			failed=$((failed + 1))
		fi
	done
done

# The man pages (docs/man/man3) go to PREFIX/share/man/man3; checking the
# file needs no man(1) on the machine.
man_page="$stage$prefix/share/man/man3/rcu_read_lock.3"
if grep -q '^\.TH RCU_READ_LOCK 3 ' "$man_page" 2>/dev/null; then
	echo "PASS: man page rcu_read_lock(3)"
	passed=$((passed + 1))
else
	echo "FAIL: man page rcu_read_lock(3) not installed as $man_page"
	failed=$((failed + 1))
fi
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
