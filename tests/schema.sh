#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The results schema (doc/results.schema.json): every kind of JSON fbrun
# writes - a run, --format json, --repeat, --interval and psrun series,
# --warmup, a failed run, an interrupted one, verify errors, a block
# device, an fbrun-mpi job - carries schema_version first and validates
# against the schema, which names every member it holds; a file that
# breaks it does not validate.  compare refuses a file of a newer major
# version (exit 2, the version named) and still reads one without
# schema_version, from an older fbrun.
. "${srcdir:-.}/tests/lib.sh"

schema=$srcdir/doc/results.schema.json
header=$srcdir/src/util/schema_version.h
MPI_FBRUN=$(dirname "$FBRUN")/fbrun-mpi

loop=""
schema_cleanup() {
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || :
	cleanup
}
trap schema_cleanup EXIT

have_schema=false
if ! command -v python3 >/dev/null 2>&1; then
	why_schema="python3 is not installed"
elif ! python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
	why_schema="python3-jsonschema (4.0 or later) is not installed (apt-get install python3-jsonschema)"
else
	have_schema=true
fi

# validate MODE FILE...: every file against the schema as shipped
# (MODE shipped), or with every object closed to the members it names
# (strict), or both; the errors on stdout, status 1 if any
cat >"$TMP/validate.py" <<'EOF'
import json, re, sys
import jsonschema

mode, schema_path, header = sys.argv[1:4]
schema = json.load(open(schema_path))
h = open(header).read()
version = '%s.%s' % tuple(re.search(r'#define SCHEMA_%s (\d+)' % p, h).group(1)
                          for p in ('MAJOR', 'MINOR'))

def close(s, run):
    """Every object of schema s closed to the members it names: an object
    schema, or a use of the run's (which the top level extends with
    repeats and statistics, so not the run's own), gets
    unevaluatedProperties false unless it says what else it takes.  An
    "if" is a test, left as it is."""
    if not isinstance(s, dict):
        return
    if (s.get('type') == 'object' or 'properties' in s or
            s.get('$ref') == '#/$defs/run') and s is not run and \
            'additionalProperties' not in s:
        s['unevaluatedProperties'] = False
    for k in ('properties', '$defs'):
        for sub in s.get(k, {}).values():
            close(sub, run)
    for k in ('items', 'then', 'additionalProperties'):
        close(s.get(k), run)

jsonschema.Draft202012Validator.check_schema(schema)
validators = []
if mode in ('shipped', 'both'):
    validators.append(('schema', jsonschema.Draft202012Validator(schema)))
if mode in ('strict', 'both'):
    strict = json.loads(json.dumps(schema))
    close(strict, strict['$defs']['run'])
    validators.append(('every member named',
                       jsonschema.Draft202012Validator(strict)))
bad = 0
for path in sys.argv[4:]:
    r = json.load(open(path))
    runs = [r] + (r.get('repeats', []) if isinstance(r, dict) else [])
    for i, x in enumerate(runs):
        if not isinstance(x, dict) or next(iter(x), None) != 'schema_version' \
                or x['schema_version'] != version:
            print('%s: run %d: schema_version %s is not its first member' %
                  (path, i, version))
            bad += 1
    for what, v in validators:
        for e in sorted(v.iter_errors(r), key=lambda e: list(e.path)):
            print('%s: %s: at /%s: %s' % (path, what,
                  '/'.join(str(p) for p in e.path), e.message[:300]))
            bad += 1
sys.exit(1 if bad else 0)
EOF

# valid WHAT FILE: FILE validates against the schema, every member named
valid() {
	if ! $have_schema; then
		skip "$1 validates: $why_schema"
	elif [ ! -s "$2" ]; then
		fail "$1 validates: $2 was not written"
	elif python3 "$TMP/validate.py" both "$schema" "$header" "$2" >"$TMP/verr" 2>&1; then
		pass "$1 validates against the schema"
	else
		fail "$1 validates against the schema"
		head -20 "$TMP/verr" | diag
	fi
}
# invalid WHAT MODE FILE PATTERN: FILE does not validate, saying PATTERN
invalid() {
	if ! $have_schema; then
		skip "$1: $why_schema"
	elif python3 "$TMP/validate.py" "$2" "$schema" "$header" "$3" >"$TMP/verr" 2>&1; then
		fail "$1"
	else
		grepq "$1" "$4" "$TMP/verr"
	fi
}

# fb ARGS...: fbrun under a guard against a hang (not a time the test
# expects), output in $TMP/out, $TMP/err, $rc
fb() {
	rc=0
	timeout 300 "$FBRUN" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
}

# child PID: the process `timeout` runs (fbrun itself)
child() { ps -o pid= --ppid "$1" | tr -d ' '; }

if $have_schema; then
	check "the schema is a valid draft 2020-12 schema" python3 -c '
import json, sys, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$schema"
	check "its schema_version pattern takes the version fbrun writes (src/util/schema_version.h)" \
		python3 -c '
import json, re, sys
s = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
v = "%s.%s" % tuple(re.search(r"#define SCHEMA_%s (\d+)" % p, h).group(1) for p in ("MAJOR", "MINOR"))
sys.exit(0 if re.search(s["$defs"]["run"]["properties"]["schema_version"]["pattern"], v) else 1)' \
		"$schema" "$header"
else
	skip "the schema itself: $why_schema"
fi

# --- a run: every member a run can have outside a job ------------------------
# histograms, a mean of samples, data patterns, a flowop that never runs
cat >"$TMP/w.f" <<F
set \$u = randvar(type=uniform, min=200, mean=1000)
define fileset name=fs,path=$TMP/w,entries=20,dirwidth=5,size=16k,prealloc,data=zeros
define process name=p { thread name=t {
  flowop openfile name=openfile1,filesetname=fs,fd=1
  flowop readwholefile name=read1,fd=1,iosize=4k
  flowop closefile name=closefile1,fd=1
  flowop appendfilerand name=app,filesetname=fs,iosize=1k,data=random
  flowop testrandvar name=rv,value=\$u }
  thread name=idle { flowop delay name=never,value=100 } }
enable lathist
run 30
F
fb -q -t 1 -o "$TMP/plain.json" "$TMP/w.f"
check "a run: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... schema_version is the file's first member" \
	'^  "schema_version": "[0-9]+\.[0-9]+",$' "$TMP/plain.json"
valid "a run's -o" "$TMP/plain.json"

fb -t 1 --format json "$TMP/w.f"
check "--format json: exit 0 (exit $rc)" test "$rc" -eq 0
cp "$TMP/out" "$TMP/stdout.json"
valid "--format json on standard output" "$TMP/stdout.json"

fb -q -t 1 --repeat 2 -o "$TMP/repeat.json" "$TMP/w.f"
check "--repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
valid "--repeat 2 (repeats, statistics)" "$TMP/repeat.json"

fb -q -t 3 --interval 1 --interval-flowops --steady -o "$TMP/interval.json" "$TMP/w.f"
check "--interval --interval-flowops --steady: exit 0 (exit $rc)" test "$rc" -eq 0
valid "--interval with --interval-flowops and --steady" "$TMP/interval.json"

sed 's/^run 30$/psrun -1 2/' "$TMP/w.f" >"$TMP/ps.f"
fb -q -o "$TMP/psrun.json" "$TMP/ps.f"
check "psrun: exit 0 (exit $rc)" test "$rc" -eq 0
valid "psrun's series" "$TMP/psrun.json"

fb -q -t 1 --warmup 1 -o "$TMP/warmup.json" "$TMP/w.f"
check "--warmup 1: exit 0 (exit $rc)" test "$rc" -eq 0
valid "--warmup" "$TMP/warmup.json"

# an open loop (rate=): its arrivals, each flowop's response times and the
# summary's, alone and over --repeat's runs
sed 's/^define process name=p { thread name=t {$/define process name=p { thread name=t,rate=200 {/' \
	"$TMP/w.f" >"$TMP/open.f"
fb -q -t 2 --interval 1 --repeat 2 -o "$TMP/open.json" "$TMP/open.f"
check "an open loop, --interval 1 --repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... has its arrivals" '"arrivals": \[' "$TMP/open.json"
valid "an open loop's arrivals and response times, --interval, --repeat" "$TMP/open.json"

# accelerators fed by a queue (accelerator=N): each one's utilisation and
# their summary, alone and over --repeat's runs
cat >"$TMP/ai.f" <<F
define process name=p,instances=2 {
  thread name=loader { flowop compute name=read,value=2000
    flowop queueput name=put,target=batch }
  thread name=gpu,accelerator=90 { flowop queuetake name=batch,value=2,depth=8
    flowop compute name=step,value=5000 } }
run 30
F
fb -q -t 1 --repeat 2 -o "$TMP/ai.json" "$TMP/ai.f"
check "accelerators, --repeat 2: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... has its accelerators" '"accelerators": \{' "$TMP/ai.json"
valid "accelerators' utilisation, --repeat" "$TMP/ai.json"

# --- runs that fail -----------------------------------------------------------
# a fault while creating: a file in the way of a directory
mkdir -p "$TMP/fault"
echo x >"$TMP/fault/plain"
sed "s|path=$TMP/w,|path=$TMP/fault/plain/sub,|" "$TMP/w.f" >"$TMP/fault.f"
fb -q -o "$TMP/fault.json" "$TMP/fault.f"
check "a fault while creating: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... ended_by error" '^  "ended_by": "error",$' "$TMP/fault.json"
valid "a run failed while creating" "$TMP/fault.json"

# too many open files: failed operations, their errnos
{
	echo "define fileset name=data,path=$TMP/emf,entries=40,size=1k,dirwidth=10,prealloc=100"
	echo "define process name=p { thread name=t {"
	for i in $(seq 1 24); do echo "  flowop openfile name=open$i,filesetname=data,fd=$i"; done
	for i in $(seq 1 24); do echo "  flowop closefile name=close$i,fd=$i"; done
	echo "  flowop finishoncount name=fin,value=2000"
	echo "} }"
	echo "run 30"
} >"$TMP/emf.f"
for how in "" --continue-on-error; do
	rc=0
	(ulimit -n 20 && exec timeout 300 "$FBRUN" -q $how -o "$TMP/emf$how.json" "$TMP/emf.f") \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	check "EMFILE ${how:-(stops)}: exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "... errnos in the JSON" '"errnos": \[' "$TMP/emf$how.json"
	valid "EMFILE ${how:-(stops)}" "$TMP/emf$how.json"
done
grepq "EMFILE (stops): ended_by error, with the error" '^  "error": "flowop open[0-9]+ failed' "$TMP/emf.json"

# SIGINT during the run: ended_by signal
sed 's/^run 30$/run 600/' "$TMP/w.f" >"$TMP/long.f"
rm -f "$TMP/out" "$TMP/err"
timeout 300 "$FBRUN" -o "$TMP/sigint.json" "$TMP/long.f" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
wait_for "$TMP/out" 'Running for'
kill -INT "$(child "$pid")" 2>/dev/null || :
rc=0
wait "$pid" || rc=$?
check "SIGINT during the run: exit 1 (exit $rc)" test "$rc" -eq 1
grepq "... ended_by signal" '^  "ended_by": "signal",$' "$TMP/sigint.json"
valid "a run stopped by SIGINT" "$TMP/sigint.json"

# verify errors: one byte of a kept tree changed behind fbrun's back
vdef="define fileset name=vset,path=$TMP/v,entries=4,dirwidth=100,size=20k,prealloc=100,reuse,verify"
cat >"$TMP/vread.f" <<F
set mode quit firstdone
$vdef
define process name=p { thread name=t {
  flowop openfile name=open,filesetname=vset,fd=1
  flowop readwholefile name=rwf,fd=1,iosize=3000
  flowop closefile name=close,fd=1
  flowop finishoncount name=fin,target=rwf,value=8 } }
run 10
F
fb -q "$TMP/vread.f"
check "verify: the tree is made and read (exit $rc)" test "$rc" -eq 0
victim=$(find "$TMP/v/vset" -type f ! -name .fbrun-fileset | sort | head -n 1)
old=$(od -An -tu1 -j 5000 -N 1 "$victim" | tr -d ' ')
printf "\\$(printf %03o $(((old + 1) % 256)))" |
	dd of="$victim" bs=1 seek=5000 conv=notrunc 2>/dev/null
# the kept tree's check finds it before the run
fb -q -o "$TMP/vcheck.json" "$TMP/vread.f"
check "verify, the kept tree checked: exit 1 (exit $rc)" test "$rc" -eq 1
valid "verify's check of a kept tree" "$TMP/vcheck.json"
# trusttree: no check, the reads find it
sed 's/,verify$/,verify,trusttree/' "$TMP/vread.f" >"$TMP/vtrust.f"
for how in "" --continue-on-error; do
	fb -q $how -o "$TMP/verify$how.json" "$TMP/vtrust.f"
	check "verify ${how:-(stops)}: exit 1 (exit $rc)" test "$rc" -eq 1
	grepq "... a verify error in the JSON" '"verify_errors": [1-9]' "$TMP/verify$how.json"
	valid "verify errors ${how:-(stops)}" "$TMP/verify$how.json"
done

# a replay whose ops failed in the recording and succeed: its rows'
# mismatches
printf '%s\n' 'fbrun-trace 1' 'stream "s"' \
	'0.000000000 - stat path="b" = EPERM' '0.000100000 - stat path="b" = 0' \
	>"$TMP/mm.trace"
cat >"$TMP/mm.f" <<F
define fileset name=f,path=$TMP/mm,entries=0,dirwidth=1
define trace name=t,path=$TMP/mm.trace
define process name=p { thread name=t {
  flowop replay name=R,trace=t,filesetname=f
  flowop finishoncount name=fin,target=R,value=1 } }
run 600
F
fb -q -o "$TMP/replay.json" "$TMP/mm.f"
check "a replay: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... mismatches in the JSON" '"mismatches": 1,' "$TMP/replay.json"
valid "a replay with mismatches" "$TMP/replay.json"

# --- a block device -------------------------------------------------------------
why=""
if ! $is_root; then
	why="needs root for a loop device"
elif ! command -v losetup >/dev/null 2>&1; then
	why="losetup not found"
else
	truncate -s 4M "$TMP/img"
	loop=$(losetup -f --show "$TMP/img" 2>"$TMP/losetup.err") || {
		loop=""
		why="no loop device: $(head -1 "$TMP/losetup.err")"
	}
fi
if [ -n "$why" ]; then
	skip "a block device's fileset: $why"
else
	cat >"$TMP/dev.f" <<F
define file name=disk,path=$loop
define process name=p { thread name=t {
  flowop read name=rd,filesetname=disk,iosize=64k,random
  flowop finishoncount name=fin,target=rd,value=100 } }
run 60
F
	fb -q -o "$TMP/device.json" "$TMP/dev.f"
	check "a block device: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	valid "a block device's fileset" "$TMP/device.json"
fi

# --- an fbrun-mpi job of 2 ranks (mpi, ranks) -----------------------------------
if ! command -v mpirun >/dev/null 2>&1; then
	skip "fbrun-mpi: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
elif [ ! -x "$MPI_FBRUN" ]; then
	skip "fbrun-mpi was not built (configure found no mpicc)"
else
	# root may run mpirun when it says so; the ranks may outnumber the
	# CPUs; Open MPI keeps memory until the end (not fbrun's leaks)
	OMPI_ALLOW_RUN_AS_ROOT=1
	OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	OMPI_MCA_rmaps_base_oversubscribe=1
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
		OMPI_MCA_rmaps_base_oversubscribe ASAN_OPTIONS
	cat >"$TMP/job.f" <<F
define fileset name=fs1,path=$TMP/job,entries=16,size=8k,dirwidth=4,prealloc=100
define process name=p { thread name=t,memsize=64k {
  flowop openfile name=open1,filesetname=fs1,fd=1
  flowop readwholefile name=read1,fd=1,iosize=8k
  flowop closefile name=close1,fd=1
  flowop finishoncount name=fin,value=300,target=read1 } }
run 600
F
	rc=0
	timeout -s KILL 300 mpirun -np 2 "$MPI_FBRUN" -q -o "$TMP/mpi.json" "$TMP/job.f" \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	check "fbrun-mpi, 2 ranks: exit 0 (exit $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || diag <"$TMP/err"
	grepq "... the JSON has the job's ranks" '^  "ranks": \[' "$TMP/mpi.json"
	valid "an fbrun-mpi job's results (mpi, ranks)" "$TMP/mpi.json"
fi

# --- files that break the schema do not validate ----------------------------------
# (so the checks above can fail)
sed 's/^  "threads": \([0-9]*\),$/  "threads": "\1",/' "$TMP/plain.json" >"$TMP/bad-type.json"
check "a file with threads a string is made" grep -q '^  "threads": "[0-9]*",$' "$TMP/bad-type.json"
invalid "threads a string: not valid, said" shipped "$TMP/bad-type.json" "at /threads: '[0-9]+' is not of type 'integer'"
sed 's/^  "ended_by": "[a-z]*",$/  "ended_by": "crashed",/' "$TMP/plain.json" >"$TMP/bad-enum.json"
invalid "ended_by crashed: not valid, said" shipped "$TMP/bad-enum.json" "at /ended_by: 'crashed' is not one of"
grep -v '^  "fbrun_version"' "$TMP/plain.json" >"$TMP/bad-missing.json"
invalid "no fbrun_version: not valid, said" shipped "$TMP/bad-missing.json" "'fbrun_version' is a required property"
sed '/"ended_by"/s/"[a-z]*",$/"error",/' "$TMP/plain.json" >"$TMP/bad-error.json"
invalid "ended_by error without error: not valid, said" shipped "$TMP/bad-error.json" "'error' is a required property"
# a member the schema does not name: a later minor version's, valid as
# shipped (readers ignore it); the strict check finds it unnamed
sed 's/^  "threads": /  "threads_next_year": 1,\n  "threads": /' "$TMP/plain.json" >"$TMP/extra.json"
if $have_schema; then
	check "a member the schema does not name: valid as shipped" \
		python3 "$TMP/validate.py" shipped "$schema" "$header" "$TMP/extra.json"
fi
invalid "... and found by the check that every member is named" strict "$TMP/extra.json" "threads_next_year"
sed '0,/^      "ops": /s//      "ops_next_year": 1,\n      "ops": /' "$TMP/plain.json" >"$TMP/extra2.json"
invalid "... in a flowop too" strict "$TMP/extra2.json" "at /flowops/0: .*ops_next_year"

# --- compare and report: versions they read and refuse ------------------------------
sed 's/^\( *"schema_version": \)"[0-9.]*"/\1"99.0"/' "$TMP/plain.json" >"$TMP/v99.json"
fb compare "$TMP/plain.json" "$TMP/v99.json"
check "compare: schema_version 99.0 is refused, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... saying the version is newer than it reads" \
	"^fbrun: error: $TMP/v99\.json: schema_version 99\.0 is newer than this fbrun reads \([0-9]+\.x and older\): read it with a newer fbrun\$" "$TMP/err"
check "... said once" test "$(grep -c error "$TMP/err")" -eq 1
fb report "$TMP/v99.json"
check "report: schema_version 99.0 is refused, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming the version" "schema_version 99\.0 is newer" "$TMP/err"
sed 's/^\( *"schema_version": \)"[0-9.]*"/\1"99.0"/' "$TMP/repeat.json" >"$TMP/r99.json"
fb compare "$TMP/r99.json" "$TMP/repeat.json"
check "compare, a --repeat file of 99.0: refused, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... naming the version" "r99\.json: schema_version 99\.0 is newer" "$TMP/err"
sed 's/^\( *"schema_version": \)"[0-9.]*"/\11/' "$TMP/plain.json" >"$TMP/vnum.json"
fb compare "$TMP/plain.json" "$TMP/vnum.json"
check "compare: schema_version a number: refused, exit 2 (exit $rc)" test "$rc" -eq 2
grepq "... saying what it should be" '"schema_version" is not a string "MAJOR\.MINOR"' "$TMP/err"

# an older fbrun's file: no schema_version; read as before
grep -v '"schema_version"' "$TMP/plain.json" >"$TMP/old.json"
fb compare "$TMP/plain.json" "$TMP/old.json"
check "compare: a file without schema_version is read (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
fb report "$TMP/plain.json"
mv "$TMP/out" "$TMP/table"
fb report "$TMP/old.json"
check "report: a file without schema_version prints the same table" cmp -s "$TMP/table" "$TMP/out"
# a later minor version: a member this fbrun does not know, ignored
sed 's/^\( *"schema_version": \)"[0-9.]*",$/\1"1.99",\n  "next_year": {"x": [1, 2]},/' \
	"$TMP/plain.json" >"$TMP/v199.json"
check "a file of 1.99 with a member unknown today is made" grep -q '"next_year"' "$TMP/v199.json"
fb compare "$TMP/plain.json" "$TMP/v199.json"
check "compare: schema_version 1.99 with an unknown member is read (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag <"$TMP/err"
fb report "$TMP/v199.json"
check "report: ... prints the same table" cmp -s "$TMP/table" "$TMP/out"

done_testing
