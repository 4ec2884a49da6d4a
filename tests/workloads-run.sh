#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# Every shipped workload runs for a second or two at tiny scale: it must
# exit 0, print an IO Summary, fail no operation, do some I/O, not end
# early unless its quit mode says it may, and leave nothing behind but
# the filesets it marks reuse.
#
# Scale: few files (<= 200), small files (<= 64k; big single files
# <= 16m), few threads (<= 4; the five-stream scripts need 5), all under
# $TMP. Creating files is the slow part (about 3000 files/s on the
# 2-core VMs), so keep the counts small: the whole file should take well
# under 90 s there.
. "${srcdir:-.}/tests/lib.sh"

have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true

# O_DIRECT does not work on every file system (tmpfs before Linux 6.6).
have_direct=false
if dd if=/dev/zero of="$TMP/direct-probe" bs=4096 count=1 oflag=direct \
	>/dev/null 2>&1; then
	have_direct=true
fi
rm -f "$TMP/direct-probe"


# summarise JSON: prints "ERRORS IO_OPS ENDED_BY OPS_PER_SEC IDLE", IDLE
# being the I/O flowops that did no operation (comma-separated, or -)
summarise() {
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
io = {"read", "write", "appendfile", "appendfilerand", "readwholefile",
      "writewholefile", "createfile", "openfile", "closefile", "deletefile",
      "statfile", "fsync", "fsyncset", "makedir", "removedir", "listdir",
      "aiowrite"}
errors = sum(f["errors"] for f in r["flowops"])
ioops = sum(f["ops"] for f in r["flowops"] if f["type"] in io)
idle = [f["name"] for f in r["flowops"] if f["type"] in io and f["ops"] == 0]
print(errors, ioops, r["ended_by"], r["summary"]["ops_per_sec"],
      ",".join(idle) or "-")
PY
}

# ops_of JSON FLOWOP: the operations that flowop did
ops_of() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(sum(f["ops"] for f in r["flowops"] if f["name"] == sys.argv[2]))' "$1" "$2"
}

# Names of the filesets (and files) a script defines with reuse, one a line.
reused() {
	sed -n 's/^[[:space:]]*define[[:space:]][[:space:]]*file[a-z]*[[:space:]].*name=\([^,[:space:]]*\).*/\1 &/p' "$1" |
		awk '/(^|[,[:space:]])reuse([,[:space:]]|$)/ { print $1 }'
}

# Known fbrun bugs that stop a workload from passing: "workload reason",
# one a line; such a workload is skipped whole. Empty when there are none.
known_bugs=''


# workload  seconds  knobs (-D NAME=VALUE, no spaces in values)
while read -r name secs knobs; do
	case $name in '' | '#'*) continue ;; esac
	f="$srcdir/workloads/$name.f"
	echo "$name" >>"$TMP/ran"
	if [ ! -f "$f" ]; then
		fail "$name: workloads/$name.f exists"
		continue
	fi
	bug=$(printf '%s\n' "$known_bugs" | awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }')
	if [ -n "$bug" ]; then
		skip "$name runs at tiny scale: known bug: $bug"
		continue
	fi
	case $name in
	*direct)
		if ! $have_direct; then
			skip "$name runs at tiny scale: O_DIRECT is not supported under $TMP"
			continue
		fi ;;
	esac
	wdir="$TMP/w/$name"
	set --
	for k in $knobs; do set -- "$@" -D "$k"; done
	run_fbrun -q -t "$secs" -D dir="$wdir" -o "$TMP/w.json" "$@" "$f"
	if [ "$rc" -eq 0 ]; then
		pass "$name exits 0"
	else
		fail "$name exits 0 (exit $rc)"
		diag <"$TMP/err"
	fi
	grep -q '^IO Summary: ' "$TMP/out" && pass "$name prints the IO Summary" ||
		fail "$name prints the IO Summary"

	# firstdone/alldone scripts may stop when their work is done; the
	# others must run their whole time.
	timeout_mode=true
	grep -Eq '^[[:space:]]*set[[:space:]]+mode[[:space:]]+quit[[:space:]]+(firstdone|alldone)' "$f" &&
		timeout_mode=false

	if $have_python && [ -s "$TMP/w.json" ]; then
		set -- $(summarise "$TMP/w.json" || echo x x x x x)
		check "$name: no operation failed (${1:-?} errors)" test "${1:-x}" = 0
		check "$name: its I/O flowops did some operations (${2:-?})" \
			test "${2:-0}" -gt 0 2>/dev/null
		idle=''
		[ "${5:--}" = - ] || idle=" (idle: $5)"
		check "$name: every I/O flowop ran$idle" test "${5:-x}" = -
		ended=${3:-?}
		echo "# $name: ${4:-?} ops/s, ended by $ended"
	elif $have_python; then
		fail "$name writes its JSON results"
		ended='?'
	else
		skip "$name: no operation failed: python3 is missing"
		ops=$(awk '/^IO Summary:/ { print $3; exit }' "$TMP/out")
		check "$name: its I/O flowops did some operations (${ops:-?})" \
			test "${ops:-0}" -gt 0 2>/dev/null
		ended=timeout
	fi

	if ! $timeout_mode; then
		pass "$name may end when its work is done (ended by $ended)"
	elif grep -q 'run ended early' "$TMP/err" || [ "$ended" != timeout ]; then
		fail "$name runs its whole time (ended by $ended)"
		diag <"$TMP/err"
	else
		pass "$name runs its whole time"
	fi

	# createdelete-swing: the two threads hand the directory over (a
	# lost wakeup leaves both waiting for the rest of the run): the
	# deleter deleted only what the creator made, a whole set at a time
	# but for the set it was working on when the run ended, and the
	# creator got the directory back at least once (20 files each way in
	# a 2 s run).
	if [ "$name" = createdelete-swing ] && $have_python && [ -s "$TMP/w.json" ]; then
		# (not $d: check's own)
		sw_n=$(ops_of "$TMP/w.json" creatorblock || echo 0)
		sw_c=$(ops_of "$TMP/w.json" fillup.swing-create || echo 0)
		sw_d=$(ops_of "$TMP/w.json" drain || echo 0)
		check "$name: the directory swung back to the creator ($sw_n times)" \
			test "$sw_n" -ge 1
		check "$name: deletes follow creates, a set of 20 apart at most ($sw_c created, $sw_d deleted)" \
			eval '[ "$sw_d" -le "$sw_c" ] && [ "$((sw_c - sw_d))" -le 20 ] && [ "$sw_d" -ge "$((20 * sw_n))" ]'
	fi

	# oltp: the log writer gets its batches of commits, so the shadows
	# and the writers keep going.
	if [ "$name" = oltp ] && $have_python && [ -s "$TMP/w.json" ]; then
		n=$(ops_of "$TMP/w.json" lg-block || echo 0)
		check "$name: the log writer took a batch of commits ($n)" \
			test "$n" -ge 1
	fi
	rm -f "$TMP/w.json"

	# Nothing left behind but the reuse filesets, each with its marker.
	keep=$(reused "$f")
	keeplist=" $(echo $keep) "
	left=''
	if [ -d "$wdir" ]; then
		for e in $(ls -A "$wdir"); do
			case $keeplist in
			*" $e "*) ;;
			*) left="$left $e" ;;
			esac
		done
	fi
	check "$name leaves nothing behind${left:+ (left:$left)}" test -z "$left"
	for k in $keep; do
		check "$name keeps its reuse fileset $k with the marker" \
			test -f "$wdir/$k/.fbrun-fileset"
	done
	rm -rf "$wdir"
done <<'EOF'
# application personalities
fileserver        1  nfiles=200 meandirwidth=20 filesize=32k nthreads=4 meanappendsize=8k
varmail           1  nfiles=200 filesize=16k nthreads=4
webserver         1  nfiles=100 filesize=16k nthreads=4
webproxy          1  nfiles=200 filesize=16k nthreads=4
mongo             2  nfiles=100 filesize=16k nthreads=2
oltp              2  nfiles=4 filesize=4m logfilesize=4m nshadows=2 ndbwriters=1 usermode=20000
videoserver       1  filesize=4m numactivevids=2 numpassivevids=4 nthreads=2 repintval=1
netsfs            1  nfiles=200 nthreads=2 eventrate=50 filesize=16k wrtiosize=16k
images            1  nfiles=100 meandirwidth=20 filesize=32k nthreads=3 ncreators=1 readiosize=8k
verify            1  nfiles=100 filesize=32k nwriters=2 nreaders=2
# file and directory operations
copyfiles         2  nfiles=100 meanfilesize=16k nthreads=2
ratelimcopyfiles  2  nfiles=50 filesize=16k eventrate=100
createfiles       2  nfiles=200 meandirwidth=20 meanfilesize=16k nthreads=4
createdelete-swing 2 nfiles=20 meanfilesize=16k
makedirs          2  ndirs=200 meandirwidth=20 nthreads=4
removedirs        2  ndirs=200 meandirwidth=20 nthreads=4
listdirs          1  nfiles=200 nthreads=4
openfiles         1  nfiles=200 meandirwidth=20 nthreads=4
# large-file I/O
randomread        1  filesize=16m nthreads=2
randomwrite       1  filesize=16m nthreads=2 workingset=8m
randomrw          1  filesize=16m nthreads=2
singlestreamread  1  filesize=16m
singlestreamreaddirect 1 filesize=16m
singlestreamwrite 1  nwrites=16
singlestreamwritedirect 1 nwrites=16
fivestreamread    1  filesize=4m
fivestreamreaddirect 1 filesize=4m
fivestreamwrite   1  iosize=256k nwrites=16
fivestreamwritedirect 1 iosize=256k nwrites=16
# micro-benchmarks
filemicro_create  2  count=64 iosize=64k
filemicro_createfiles 2 nfiles=200 count=150 nthreads=2
filemicro_createrand 2 bytes=4m iosize=64k
filemicro_delete  2  nfiles=200 count=100 filesize=4k nthreads=4
filemicro_rread   2  filesize=16m bytes=4m
filemicro_rwrite  2  filesize=16m bytes=4m
filemicro_rwritedsync 2 filesize=16m count=256
filemicro_rwritefsync 2 filesize=16m iters=256 count=2
filemicro_seqread 1  filesize=16m
filemicro_seqwrite 2 count=64 iosize=64k
filemicro_seqwriterand 2 count=1k
filemicro_seqwriterandvargam 2 count=1k nthreads=2
filemicro_seqwriterandvartab 2 count=1k nthreads=2
filemicro_statfile 1 nfiles=200 filesize=4k nthreads=4
filemicro_writefsync 2 writeiters=64 fsynccount=4
# AI training data loading (accelerators fed by reader threads)
ai/unet3d         2  files=8 samplesize=256k iosize=64k compute=20000
ai/resnet50       2  files=4 samples=50 filesize=5733000 compute=20000
ai/cosmoflow      2  files=20 samplesize=64k iosize=64k
ai/checkpoint     1  shard=4m iosize=1m
# SPECstorage-style workloads: business metrics at fixed rates (open loop)
spec/swbuild      2  files=200 dirwidth=20
spec/vda          2  clips=8 library=4 filesize=1m iosize=64k chunks=4
spec/eda          2  smallfiles=100 largefiles=2 largesize=4m transfers=4
spec/genomics     2  inputs=2 inputsize=4m refsize=4m outputs=4
spec/ai_image     2  images=200 ckptsize=1m ckptrate=1
# a container image pull, fitted to a recording of tar -x; ends when done
imagepull         10
EOF

# Every script in workloads/ and workloads/spec/ is in the table above.
for f in "$srcdir"/workloads/*.f "$srcdir"/workloads/spec/*.f; do
	n=${f#"$srcdir"/workloads/}
	n=${n%.f}
	grep -qx "$n" "$TMP/ran" && pass "$n.f is in the table" ||
		fail "$n.f is in the table (add a line for it)"
done

done_testing
