#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# fbrun-mpi across hosts: client machines simulated on this one, each a
# network namespace with its own address on a private bridge and its own
# host name (a UTS namespace); mpirun runs in the first and starts the
# others' ranks through an rsh agent, so every message between hosts goes
# over TCP.  They share this machine's file systems, as clients of one
# shared file system would.  What tests/mpi.sh checks on one host is not
# repeated: here the host names, the merge and the stop rounds between
# hosts, a shared fileset read from other hosts, a rank killed on another
# host, bonnie's lines from two hosts.  Facts only: counts, files, exit
# codes, JSON.
. "$srcdir/tests/lib.sh"

MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi

why=""
if ! $is_root; then
	why="needs root to make network namespaces"
elif ! command -v ip >/dev/null 2>&1; then
	why="ip not found (apt-get install iproute2)"
elif ! command -v unshare >/dev/null 2>&1; then
	why="unshare not found (apt-get install util-linux)"
elif ! command -v mpirun >/dev/null 2>&1; then
	why="mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	why="fbrun-mpi was not built (configure found no mpicc: apt-get install openmpi-bin libopenmpi-dev)"
elif ! command -v python3 >/dev/null 2>&1; then
	why="needs python3 to read the JSON"
else
	case $TMP in
	*[[:space:]]*) why="Open MPI splits its rsh agent's path at spaces: set TMPDIR to a path without them" ;;
	esac
fi

# ---------------------------------------------------------------- hosts
# Names from this run's pid, so that two runs at once (or anyone's
# namespaces beside them) never meet: bridge fbb<pid>, hosts (namespaces
# and host names) fbn<pid>-<i>, their veths fbv<pid>-<i> (at most 12
# characters; the kernel allows 15), subnet 10.<pid/256%256>.<pid%256>/24.
# The bridge has no address here, so nothing leaves the namespaces.
tag=$$
br=fbb$tag
net=10.$(((tag >> 8) & 255)).$((tag & 255))
hosts=""
made_br=false

# fbrun_in NS...: the pids of fbrun-mpi processes in those namespaces
fbrun_in() {
	for ns in "$@"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = fbrun-mpi ]; then
				echo "$p"
			fi
		done
	done
}

# hosts_down: every process left in our namespaces (ours: mpirun's
# daemons and ranks after a failure), then the namespaces, veths, bridge
hosts_down() {
	for ns in $hosts; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null || :
		done
		ip netns del "$ns" 2>/dev/null || :
		ip link del "fbv${ns#fbn}" 2>/dev/null || :
	done
	hosts=""
	if $made_br; then
		ip link del "$br" 2>/dev/null || :
		made_br=false
	fi
	# `ip netns add` made /run/netns a mount of itself: undone once no
	# namespace is left in it (someone else's would need it)
	if $netns_ours && mountpoint -q /run/netns 2>/dev/null &&
		[ -z "$(ip netns list 2>/dev/null)" ]; then
		umount /run/netns 2>/dev/null || :
	fi
}
netns_ours=false
mountpoint -q /run/netns 2>/dev/null || netns_ours=true
trap 'hosts_down; cleanup' EXIT

# hosts_up N: N hosts, $TMP/hostfile (2 slots each) and $TMP/agent;
# returns 1 with the reason in $why when the kernel or the container
# does not allow it
hosts_up() {
	ip link add "$br" type bridge 2>"$TMP/nerr" || {
		why="cannot make a bridge here: $(head -1 "$TMP/nerr")"
		return 1
	}
	made_br=true
	ip link set "$br" up
	: >"$TMP/hostfile"
	i=1
	while [ "$i" -le "$1" ]; do
		h=fbn$tag-$i
		ip netns add "$h" 2>"$TMP/nerr" || {
			why="cannot make a network namespace here: $(head -1 "$TMP/nerr")"
			return 1
		}
		hosts="$hosts $h"
		if ! ip link add "fbv$tag-$i" type veth peer name eth0 netns "$h" 2>"$TMP/nerr" ||
			! ip link set "fbv$tag-$i" master "$br" up 2>>"$TMP/nerr" ||
			! ip netns exec "$h" ip addr add "$net.$((10 + i))/24" dev eth0 2>>"$TMP/nerr" ||
			! ip netns exec "$h" ip link set eth0 up 2>>"$TMP/nerr" ||
			! ip netns exec "$h" ip link set lo up 2>>"$TMP/nerr"; then
			why="cannot connect a namespace to a bridge here: $(head -1 "$TMP/nerr")"
			return 1
		fi
		# IPv4 only: Open MPI would offer the link-local IPv6 address too
		ip netns exec "$h" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null || :
		if ! ip netns exec "$h" unshare --uts sh -c "hostname $h" 2>"$TMP/nerr"; then
			why="cannot give a namespace its own host name here: $(head -1 "$TMP/nerr")"
			return 1
		fi
		echo "$h slots=2" >>"$TMP/hostfile"
		i=$((i + 1))
	done
	# mpirun calls it as `agent HOST COMMAND...`, as it would call ssh
	cat >"$TMP/agent" <<A
#!/bin/sh
# mpirun's rsh agent: host H is the network namespace H of tests/mpi-hosts.sh
h=\$1
shift
case " $hosts " in
*" \$h "*) ;;
*) echo "mpi-hosts agent: unknown host '\$h'" >&2; exit 1 ;;
esac
exec ip netns exec "\$h" unshare --uts sh -c "hostname \$h; \$*"
A
	chmod 755 "$TMP/agent"
}

if [ -z "$why" ]; then
	hosts_up 3 || :
fi
if [ -n "$why" ]; then
	hosts_down
	skip "fbrun-mpi across hosts: $why"
	done_testing
	exit
fi
h1=fbn$tag-1 h2=fbn$tag-2 h3=fbn$tag-3

OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# Open MPI keeps memory until the end: not fbrun's leaks
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
# a guard against a hang, not a time the test expects
GUARD=300

# hmpi NP fbrun-mpi ARGS...: mpirun on host 1 (as that host), the ranks
# spread over the hosts one by one; status in $rc.  Open MPI's launch
# over these hosts once hung under a heavy load (libevent's "Epoll MOD
# ... Bad file descriptor", nothing started): a run the guard kills is
# tried once more, said in the log; a hang of fbrun's own hangs both.
hmpi() {
	for try in 1 2; do
		hmpi_once "$@"
		[ "$rc" -eq 137 ] || break
		echo "mpirun killed by the $GUARD s guard (try $try):" | diag
		diag <"$TMP/err"
	done
}
hmpi_once() {
	np=$1
	shift
	rc=0
	timeout -s KILL $GUARD ip netns exec "$h1" unshare --uts \
		sh -c 'hostname "$0" && exec "$@"' "$h1" \
		mpirun -np "$np" --hostfile "$TMP/hostfile" --map-by node \
		--mca plm_rsh_agent "$TMP/agent" --mca btl tcp,self \
		--mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 \
		"$MPI_FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}

# why_failed: what mpirun and the ranks said, for the log
why_failed() {
	echo "exit $rc; stderr:" | diag
	diag <"$TMP/err"
	echo "stdout (its end):" | diag
	tail -20 "$TMP/out" | diag
}

# The same exact work on every rank: one thread reads until its count.
dir=$TMP/fs
cat >"$TMP/count.f" <<F
set \$dir=$dir
define fileset name=fs1,path=\$dir,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=300,target=read1 } }
run 600
F
rm -f "$TMP/r.json"
hmpi 4 -o "$TMP/r.json" "$TMP/count.f"
check "4 ranks on 3 hosts: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || why_failed
grepq "... the per-rank table says 3 hosts" "^Per-rank \(4 ranks on 3 hosts\)" "$TMP/out"
if [ -f "$TMP/r.json" ]; then
	check "... JSON mpi.hosts is 3" test "$(json "$TMP/r.json" "r['mpi']['hosts']")" -eq 3
	check "... each rank's host is its namespace's name, by node: $h1 $h2 $h3 $h1" \
		test "$(json "$TMP/r.json" "' '.join(k['host'] for k in r['ranks'])")" = "$h1 $h2 $h3 $h1"
	check "... every rank read exactly 300 times: job read1 = 1200" \
		test "$(json "$TMP/r.json" "[f for f in r['flowops'] if f['name']=='read1'][0]['ops']")" -eq 1200
	check "... each rank did 900 operations (300 opens, reads, closes) and read 300 x 8 KiB" \
		test "$(json "$TMP/r.json" "all(k['ops'] == 900 and k['bytes'] == 300 * 8192 for k in r['ranks'])")" = True
	check "... the job's ops are the ranks' summed: 4 x 900" \
		test "$(json "$TMP/r.json" "r['summary']['ops'] == sum(k['ops'] for k in r['ranks']) == 3600")" = True
else
	fail "... -o written by rank 0"
fi
check "... every rank's tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"
# <path> is made by one rank, whichever came first, and is not empty
# until every rank's tree is gone
check "... <path>, which the ranks made, is removed too" test ! -e "$dir"
rm -rf "$dir"

# A shared fileset: made once by rank 0 on host 1, read from hosts 2 and 3
cat >"$TMP/shared.f" <<F
define fileset name=pub,path=$dir,entries=12,size=8k,dirwidth=4,prealloc=100,shared
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=pub,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=100,target=read1 } }
run 600
F
rm -f "$TMP/r.json"
hmpi 3 -o "$TMP/r.json" "$TMP/shared.f"
check "shared fileset, 3 ranks on 3 hosts: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || why_failed
check "... rank 0 creates it, once" test "$(grep -c 'Creating fileset pub' "$TMP/out")" -eq 1
if [ -f "$TMP/r.json" ]; then
	check "... one rank per host" \
		test "$(json "$TMP/r.json" "' '.join(k['host'] for k in r['ranks'])")" = "$h1 $h2 $h3"
	check "... every rank read it 100 times (300 operations, 100 x 8 KiB each)" \
		test "$(json "$TMP/r.json" "[(k['ops'], k['bytes']) for k in r['ranks']]")" = \
		"[(300, 819200), (300, 819200), (300, 819200)]"
fi
check "... rank 0 removes it after every rank is done" test -z "$(ls -A "$dir" 2>/dev/null)"
rm -rf "$dir"

# A script error: said once, every rank on every host exits 2, nothing made
cat >"$TMP/bad.f" <<F
define fileset name=fs1,path=$dir,entries=4,size=4k,prealloc
define process name=p { thread name=t { flowop raedfile name=r1,filesetname=fs1 } }
run 5
F
hmpi 3 "$TMP/bad.f"
check "script error, 3 hosts: mpirun exits 2" test "$rc" -eq 2
check "... the error is printed once" test "$(grep -c 'error:' "$TMP/err")" -eq 1
grepq "... located, by rank 0" "bad\.f:2:[0-9]+: error: " "$TMP/err"
check "... nothing is created" test ! -e "$dir"

# bonnie++'s tests on two hosts: the job's line, then each rank's
mkdir -p "$TMP/bon"
hmpi 2 bonnie -q -d "$TMP/bon" -s 16 -r 8 -n 1 -f -m job
check "fbrun-mpi bonnie, 2 ranks on 2 hosts: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || why_failed
check "... three CSV lines: the job's and each rank's" \
	test "$(grep -c '^1\.98,' "$TMP/out")" -eq 3
grepq "... the job's: both ranks' sizes (32M) and files (2)" \
	'^1\.98,fbrun,job\*2,1,[0-9]+,32M,,16384,[0-9]+,,,[^,]*,[^,]*,[^,]*,[^,]*,,,[^,]*,[^,]*,[^,]*,[^,]*,2,' "$TMP/out"
grepq "... rank 0's own: 16M" '^1\.98,fbrun,rank-0,1,[0-9]+,16M,' "$TMP/out"
grepq "... rank 1's own: 16M" '^1\.98,fbrun,rank-1,1,[0-9]+,16M,' "$TMP/out"
check "... every rank's directory is removed" test -z "$(ls -A "$TMP/bon")"

# Signals.  long.f runs 600 s: ending sooner is the signal's doing.
cat >"$TMP/long.f" <<F
define fileset name=fs1,path=$dir,entries=8,size=4k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop statfile name=st,filesetname=fs1 } }
run 600
F
# wait_running: until rank 0 logs the run's start (every rank's threads
# are ready then), or the guard
wait_running() {
	i=0
	while [ $i -lt $GUARD ] && ! grep -q "Running for" "$TMP/out" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
	[ $i -lt $GUARD ] || echo "rank 0 did not start the run in $GUARD s" | diag
}
# wait_gone: until no fbrun-mpi is left on any host, or 60 s
wait_gone() {
	i=0
	while [ -n "$(fbrun_in $hosts)" ] && [ $i -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
}

# SIGINT to the rank on host 3: the stop round reaches every host over
# TCP, rank 0 prints and writes the job's results
rm -f "$TMP/r.json"
: >"$TMP/out"
(hmpi_once 3 -o "$TMP/r.json" "$TMP/long.f"; exit $rc) &
bg=$!
wait_running
kill -INT $(fbrun_in "$h3") 2>/dev/null || :
rc=0
wait $bg || rc=$?
check "SIGINT to the rank on host 3: mpirun exits 1" test "$rc" -eq 1
rc=$(json "$TMP/r.json" "r['ended_by']" 2>/dev/null || echo none)
check "... the job's results say signal" test "$rc" = signal
[ "$rc" = signal ] || why_failed
grepq "... rank 0 prints the job's results" "^Per-rank \(3 ranks on 3 hosts\)" "$TMP/out"
wait_gone
check "... no rank is left on any host" test -z "$(fbrun_in $hosts)"
check "... every tree is removed" test -z "$(ls -A "$dir" 2>/dev/null)"

# kill -9 of the rank on host 2, which mpirun's host reaches only over
# TCP: mpirun ends the job, no rank keeps running on any host
: >"$TMP/out"
(hmpi_once 3 "$TMP/long.f"; exit $rc) &
bg=$!
wait_running
kill -KILL $(fbrun_in "$h2") 2>/dev/null || :
rc=0
wait $bg || rc=$?
check "kill -9 of the rank on host 2: mpirun exits non-zero" test "$rc" -ne 0
wait_gone
check "... no rank is left on any host" test -z "$(fbrun_in $hosts)"
rm -rf "$dir"

# Nothing of ours is left: namespaces, veths, bridge
hosts_down
check "every namespace of this run is removed" \
	eval '! ip netns list | grep -q "^fbn$tag-"'
check "every veth and the bridge are removed" \
	eval '! ip -o link show | grep -Eq ": (fbv$tag-[0-9]+|$br)[@:]"'
if $netns_ours && [ -z "$(ip netns list 2>/dev/null)" ]; then
	check "the mount of /run/netns that ip netns made is gone" \
		eval '! mountpoint -q /run/netns'
fi

done_testing
