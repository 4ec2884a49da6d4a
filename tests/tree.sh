#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Tree shapes: fbrun lays out the tree filebench 1.5 lays out for the same
# fileset.  tests/tree-model.py computes that tree on its own, from the
# description of filebench's algorithm and random numbers; every shape
# here is compared, exactly, with what fbrun logs (filebench's populated
# line and fbrun's tree line) and with the tree on disk counted by find:
# files and directories at each depth, and the bytes of the files.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not found: no model to compare the trees with"
	done_testing
	exit
fi
model="$srcdir/tests/tree-model.py"

# Depth:count pairs of the paths read on stdin (./a/b is depth 2).
histogram() {
	awk -F/ '{ n[NF - 1]++ } END { for (d in n) print d, n[d] }' |
		sort -n | awk '{ printf "%s%d:%d", s, $1, $2; s = " " }'
}

# shape NAME SPEC...: one script with a fileset per SPEC (the model's
# NAME:ENTRIES:DIRWIDTH:DIRGAMMA:LEAFDIRS[:SIZE]), every entry made.
shape() {
	t=$1
	shift
	: >"$TMP/$t.f"
	for spec; do
		echo "$spec" | {
			IFS=: read -r n e w g l s
			case ${s:-0} in
			gamma/*)
				m=${s#gamma/}
				echo "set \$size_$n=cvar(type=cvar-gamma,parameters=\"mean:${m%/*};gamma:${m#*/}\")"
				s="\$size_$n" ;;
			esac
			echo "define fileset name=$n,path=$TMP/$t,entries=$e,dirwidth=$w,dirgamma=$g,leafdirs=$l,size=${s:-0},prealloc"
		} >>"$TMP/$t.f"
	done
	echo "create files" >>"$TMP/$t.f"
	python3 "$model" "$@" >"$TMP/$t.want"
	run_fbrun --keep "$TMP/$t.f"
	if [ "$rc" -ne 0 ]; then
		fail "$t: fbrun creates the tree (exit $rc)"
		diag <"$TMP/err"
		return
	fi
	sed 's/^[0-9.]*: //' "$TMP/out" | grep -E '^[^ ]+ (populated|tree as made): ' \
		>"$TMP/$t.said"
	grep -E '^[^ ]+ (populated|tree as made): ' "$TMP/$t.want" >"$TMP/$t.wantlog"
	if cmp -s "$TMP/$t.said" "$TMP/$t.wantlog"; then
		pass "$t: $(awk '/ tree as made: / { printf "%s%s", s, $0; s = "; " }' \
			"$TMP/$t.said")"
	else
		fail "$t: fbrun logs the model's figures"
		diff "$TMP/$t.wantlog" "$TMP/$t.said" | diag
	fi
	for spec; do
		n=${spec%%:*}
		r=$TMP/$t/$n
		{
			echo "$n files at depth: $(cd "$r" &&
				find . -type f ! -name .fbrun-fileset | histogram)"
			echo "$n dirs at depth: $(cd "$r" &&
				find . -mindepth 1 -type d | histogram)"
			echo "$n bytes: $(find "$r" -type f ! -name .fbrun-fileset \
				-printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
		} >"$TMP/$t.$n.disk"
		grep -E "^$n (files at depth|dirs at depth|bytes):" "$TMP/$t.want" \
			>"$TMP/$t.$n.want"
		if cmp -s "$TMP/$t.$n.disk" "$TMP/$t.$n.want"; then
			pass "$t: $n on disk as the model has it"
		else
			fail "$t: $n on disk as the model has it"
			diff "$TMP/$t.$n.want" "$TMP/$t.$n.disk" | diag
		fi
	done
	rm -rf "${TMP:?}/$t"
}

# dirgamma 1.5, the default: Knuth's algorithm A
shape small s:1000:20:1500:0
# images.f scaled up: shallow, wide
shape images bigfileset:10000:1000:1500:0
# createfiles.f: the deep, supercritical shape
shape createfiles newfiles:5000:100:1500:0
# dirgamma at most 1: the other sampler
shape gamma07 g:1000:10:700:0
# fixed shape: ln(1000)/ln(10) is 2.9999999999999996, truncated to 2
shape fixed f:1000:10:0:0
# files and leaf directories, and leaf directories alone
shape leafdirs both:300:8:1500:60 only:0:5:1500:300
# two filesets share one stream, the last defined laid out first, and
# cvar-gamma sizes come from it too (fileserver's and webserver's sets)
shape streams big:1000:20:1500:0:gamma/16384/1.5 logs:1:20:1500:0:gamma/16384/1.5

done_testing
