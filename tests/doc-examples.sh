#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Every command README and doc/*.md show runs as written and exits 0:
# each is taken from its indented or fenced block (a heredoc with it),
# and run, a document's commands in order in a directory of their own
# (so a comparison finds the runs before it), as the README's reader
# would in build/ or the tree.  Only the scale changes, through the
# forms the documents show (-t, -D, --per-level, bonnie's sizes), and
# /mnt and /tmp become directories under the test's own.  Commands this
# machine cannot run (packages to install, a cluster, an elided
# argument) are skipped with the reason; tests/readme.sh checks what the
# README prints.
. "${srcdir:-.}/tests/lib.sh"

build=$(cd "$(dirname "$FBRUN")" && pwd)
top=$(cd "$srcdir" && pwd)
mkdir -p "$TMP/cmds" "$TMP/tmp" "$TMP/mnt"

# "N<TAB>DOC" a line per command, its text in $TMP/cmds/N
for doc in $(cd "$srcdir" && echo README doc/*.md); do
	awk -v doc="$doc" -v dir="$TMP/cmds" -v n="$(ls "$TMP/cmds" | wc -l)" '
	function emit(text) {
		n++
		f = sprintf("%s/%03d", dir, n)
		printf "%s", text > f
		close(f)
		printf "%03d\t%s\n", n, doc
	}
	/^```/ { fence = !fence; next }
	{
		line = $0
		if (!fence) {
			# a heredoc or continued line may be indented further
			if (line !~ (heredoc cont != "" ? "^    " : "^    [^ ]"))
				next
			line = substr(line, 5)
		}
		if (heredoc != "") {
			text = text line "\n"
			if (line == heredoc) {
				emit(text)
				heredoc = ""
			}
			next
		}
		if (cont != "") {
			text = text line "\n"
			if (line !~ /\\$/) {
				emit(text)
				cont = ""
			}
			next
		}
		if (line !~ /^(\.\/)?fbrun(-mpi)?( |$)|^(mpirun|srun|apt-get|git|dpkg|ip) |^cat >[^ ]* <</)
			next
		text = line "\n"
		if (match(line, /<<.?EOF.?$/)) {
			heredoc = "EOF"
			next
		}
		if (line ~ /\\$/) {
			cont = 1
			next
		}
		emit(text)
	}' "$srcdir/$doc" >>"$TMP/index"
done
check "the documents show commands ($(wc -l <"$TMP/index"))" test -s "$TMP/index"

# why N: the reason this machine cannot run command N as written, or ""
why() {
	c=$(cat "$TMP/cmds/$1")
	case $c in
	*'['* | *...* | *' A.json'* | *SCRIPT* | *TRACE*)
		echo "a synopsis, not a command" ;;
	apt-get*) echo "installs packages (README's command 2 is what CI installs)" ;;
	git\ archive* | dpkg*) echo "builds or installs the Debian packages (tests/debian.sh does)" ;;
	ip\ *) echo "makes simulated hosts (tests/mpi-hosts.sh does)" ;;
	*--hostfile* | srun*) echo "needs a cluster: a hostfile's machines, or Slurm" ;;
	*/mnt/shared/*) echo "needs a file system shared by a cluster's machines" ;;
	'fbrun fileset data') echo "the first line of a marker file, shown as output" ;;
	mpirun*)
		if ! command -v mpirun >/dev/null 2>&1; then
			echo "needs mpirun (apt-get install openmpi-bin)"
		elif [ ! -x "$build/fbrun-mpi" ]; then
			echo "fbrun-mpi is not built (needs libopenmpi-dev)"
		elif ! $is_root; then
			echo "shown as root (--allow-run-as-root)"
		fi ;;
	*bonnie\ -d*)
		$is_root || echo "bonnie's example runs as root" ;;
	esac
}

# scale: the command on stdin at the test's scale, through forms the
# documents show; /mnt and /tmp under $TMP
scale() {
	sed -e "s|/tmp/|$TMP/tmp/|g" -e "s|/mnt/|$TMP/mnt/|g" \
		-e 's/--per-level [0-9]*/--per-level 1/' \
		-e 's/--repeat [0-9]*/--repeat 2/' -e 's/--warmup [0-9]*/--warmup 1/' \
		-e 's/-s 1g -r 512 -n 16/-s 16m -r 8 -n 1/' \
		-e 's/^\(fbrun\|.*fbrun-mpi\) \(.*images\.f\)$/\1 -t 1 -D nfiles=50 -D nthreads=2 -D ncreators=1 \2/' \
		-e 's/^\(fbrun\) \(.*fileserver\.f\)\( *#.*\)\{0,1\}$/\1 -t 1 -D nfiles=50 -D nthreads=2 \2\3/' \
		-e 's/^\(.*fbrun-mpi\) \(.*mdtest-easy-[a-z]*\)$/\1 -D files=200 -D dirwidth=50 \2/' \
		-e 's|^\(fbrun\) \([^ ]*openloop\.f\)$|\1 -t 1 \2|'
}

while IFS="$(printf '\t')" read -r n doc; do
	first=$(head -n 1 "$TMP/cmds/$n" | cut -c1-60)
	r=$(why "$n")
	if [ -n "$r" ]; then
		skip "$doc: $first: $r"
		continue
	fi
	work=$TMP/work/$(echo "$doc" | tr / -)
	if [ ! -d "$work" ]; then
		mkdir -p "$work"
		ln -s "$top/workloads" "$work/workloads"
		ln -s "$build/fbrun" "$work/fbrun"
		[ -x "$build/fbrun-mpi" ] && ln -s "$build/fbrun-mpi" "$work/fbrun-mpi"
	fi
	scale <"$TMP/cmds/$n" >"$TMP/run.sh"
	# a results file read that no command before it made
	missing=
	for j in $(tr ' ' '\n' <"$TMP/run.sh" | grep '\.json$' || :); do
		case $j in /*) made=$j ;; *) made=$work/$j ;; esac
		if ! grep -q -- "\(-o\|>\) *$j" "$TMP/run.sh" && [ ! -f "$made" ]; then
			missing=$j
			break
		fi
	done
	if [ -n "$missing" ]; then
		skip "$doc: $first: reads $missing, which no command before it makes"
		continue
	fi
	# the directories a reader's /mnt would have
	for d in $(grep -o "$TMP/mnt/[A-Za-z0-9_-]*" "$TMP/run.sh" || :); do
		mkdir -p "$d"
	done
	rc=0
	# Open MPI keeps memory until the end: not fbrun's leaks (a
	# sanitizer build); fbrun's own are found by the other commands
	(cd "$work" && PATH=$build:$PATH TMPDIR=$TMP/tmp \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}$(case $first in mpirun*) echo detect_leaks=0 ;; esac) \
		timeout -s KILL 600 sh "$TMP/run.sh") >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "$doc: $first: exit 0"
	elif [ "$rc" -eq 1 ] && grep -q -- "--slo" "$TMP/run.sh" &&
		grep -q "no rate met the objective" "$TMP/err"; then
		# the objective is the document's machine's: exit 1 says so
		pass "$doc: $first: ran; this machine meets no rate of its objective (exit 1)"
	elif [ "$rc" -eq 1 ] && grep -q -- "--fail-if-worse" "$TMP/run.sh" &&
		grep -q "^compare: fail: " "$TMP/err"; then
		# the gate's verdict is a measurement: two runs of one workload
		# can differ beyond its limit on a busy machine
		pass "$doc: $first: ran; the gate judged and failed (exit 1)"
	else
		fail "$doc: $first: exit 0 (exit $rc)"
		diag <"$TMP/run.sh"
		tail -n 20 "$TMP/err" | diag
	fi
done <"$TMP/index"
# what the commands left in the test's /tmp: the mdtest write phase's
# tree is removed by its delete phase
left=$(find "$TMP/tmp" -mindepth 1 -name 'fbrun-*' | head -n 5)
check "the commands leave no fbrun tree in TMPDIR${left:+ ($left)}" test -z "$left"

done_testing
