#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
"""An independent count of a program's file I/O, beside a replay's.

    record-count.py STRACE_C_OUTPUT REPLAY.json [FLOWOP]

STRACE_C_OUTPUT is what `strace -f -C -y -qq -s 0 -o FILE COMMAND`
wrote: every call, then strace's own summary (-C: calls per system call,
counted by strace).  REPLAY.json is a run that replayed a recording of
the same command (fbrun record's NAME.f, -o JSON).  Prints a line per
fbrun operation type, and one for the bytes read and written:

    TYPE INDEPENDENT REPLAYED

The independent count of a type is the calls of strace's summary that
fbrun models as that type (the table below), less the calls among them
that fbrun does not replay: those on what is not a file (a pipe, a
socket, anything under /proc, /sys or /dev, a descriptor -y shows no path
for) and those the process left unfinished (`= ?`).  Those are found in
the calls' lines, by the rules of doc/trace-format.md, with code of its
own (not fbrun's reader).  The bytes are the results of the reads and
writes that count.  Some types are summed: stat, lstat and fstat are one
(newfstatat and statx are any of them), unlink and rmdir are one
(unlinkat is either), truncate and ftruncate are one, and lock and
unlock are one: the fcntl calls that set or clear a record lock from the
file's start (F_SETLK, F_SETLKW and their OFD forms, SEEK_SET); any
other fcntl is left out.  copy_file_range and sendfile are a read and a
write each, as fbrun replays them (their bytes both read and written),
judged by their first descriptor.  A call on a bad descriptor that
failed with EBADF (Python's close(-1)) counts: fbrun makes it again.
"""
import json
import re
import sys

# fbrun's rows (summed) -> the system calls strace counts for them
TYPES = [
    (('open',), ('open', 'openat', 'creat')),
    (('close',), ('close',)),
    (('read',), ('read', 'pread64', 'readv', 'preadv', 'preadv2',
                 'copy_file_range', 'sendfile')),
    (('write',), ('write', 'pwrite64', 'writev', 'pwritev', 'pwritev2',
                  'copy_file_range', 'sendfile')),
    (('seek',), ('lseek',)),
    (('fsync',), ('fsync',)),
    (('fdatasync',), ('fdatasync',)),
    (('stat', 'lstat', 'fstat'),
     ('stat', 'lstat', 'fstat', 'newfstatat', 'fstatat64', 'statx')),
    (('unlink', 'rmdir'), ('unlink', 'unlinkat', 'rmdir')),
    (('rename',), ('rename', 'renameat', 'renameat2')),
    (('link',), ('link', 'linkat')),
    (('symlink',), ('symlink', 'symlinkat')),
    (('mkdir',), ('mkdir', 'mkdirat')),
    (('readdir',), ('getdents', 'getdents64')),
    (('truncate', 'ftruncate'), ('truncate', 'ftruncate')),
    (('setattr',), ('chmod', 'fchmod', 'fchmodat', 'chown', 'lchown',
                    'fchown', 'fchownat', 'utimensat', 'utime', 'utimes')),
    (('statfs',), ('statfs', 'fstatfs')),
    (('lock', 'unlock'), ('fcntl',)),
]
CALLS = {c for _, calls in TYPES for c in calls}
READS = set(TYPES[2][1])
WRITES = set(TYPES[3][1])
# calls whose first argument is a descriptor, not a directory for a path
FD_CALLS = READS | WRITES | {
    'fcntl', 'close', 'lseek', 'fsync', 'fdatasync', 'fstat', 'fstatfs', 'getdents',
    'getdents64', 'ftruncate', 'fchmod', 'fchown'}
PSEUDO = ('/proc', '/sys', '/dev')
# the fcntl commands that set or clear a record lock
SETLK = ('F_SETLK', 'F_SETLKW', 'F_OFD_SETLK', 'F_OFD_SETLKW')

LINE = re.compile(r'^(\d+)\s+(.*)$')
CALL = re.compile(r'^([a-z_0-9]+)\((.*)$')


def pseudo(path):
    return any(path == p or path.startswith(p + '/') for p in PSEUDO)


def first_arg(rest):
    """The first argument's text: up to a comma outside quotes and <>."""
    out, depth, quote, i = [], 0, False, 0
    while i < len(rest):
        ch = rest[i]
        if quote:
            if ch == '\\':
                out.append(rest[i:i + 2])
                i += 2
                continue
            if ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif depth == 0 and ch in ',)':
            break
        out.append(ch)
        i += 1
    return ''.join(out).strip()


def annotation(arg):
    """'3</a/b>' -> '/a/b'; 'AT_FDCWD</d>' -> '/d'; None without one."""
    m = re.match(r'^(?:\d+|AT_FDCWD)<(.*)>$', arg)
    return m.group(1) if m else None


def quoted_path(rest):
    """The first quoted string of the arguments, unescaped enough."""
    m = re.search(r'"((?:[^"\\]|\\.)*)"', rest)
    if not m:
        return None
    return re.sub(r'\\(.)', r'\1', m.group(1))


def not_replayed(name, rest, result):
    """Whether a modelled call is one fbrun leaves out (see above)."""
    if result.startswith('?'):
        return True
    arg0 = first_arg(rest)
    if name == 'fcntl':
        after = rest[rest.index(arg0) + len(arg0):].lstrip(', ')
        if after.split(',')[0].strip() not in SETLK or \
                'l_whence=SEEK_SET' not in after:
            return True
    path = quoted_path(rest)
    if name in FD_CALLS and re.match(r'^-\d+$', arg0) and \
            result.startswith('-1 EBADF'):
        return False
    if name in FD_CALLS or (path == '' and 'AT_EMPTY_PATH' in rest) or \
            (name in ('utimensat',) and re.match(r'^[^,]*, NULL', rest)):
        ann = annotation(arg0)
        return ann is None or not ann.startswith('/') or pseudo(ann)
    if path is None:
        return False
    if not path.startswith('/'):
        ann = annotation(arg0) if name.endswith('at') or \
            name in ('renameat2', 'statx', 'utimensat') else None
        if ann is None:
            return False  # relative to a directory of its own: a file
        path = ann + '/' + path
    return pseudo(path)


def parse_strace(fname):
    summary = {}
    left_out = {}
    nbytes = {'read': 0, 'write': 0}
    pending = {}
    in_summary = False
    with open(fname, errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\n')
            if line.startswith('% time'):
                in_summary = True
                continue
            if in_summary:
                cols = line.split()
                if len(cols) >= 5 and not line.startswith('-') and \
                        cols[-1] != 'total':
                    summary[cols[-1]] = summary.get(cols[-1], 0) + \
                        int(cols[3])
                continue
            m = LINE.match(line)
            if not m:
                continue
            pid, text = m.groups()
            if text.endswith(' <unfinished ...>'):
                pending[pid] = text[:-len(' <unfinished ...>')]
                continue
            r = re.match(r'^<\.\.\. ([a-z_0-9]+) resumed>(.*)$', text)
            if r:
                text = pending.pop(pid, r.group(1) + '(') + r.group(2)
            c = CALL.match(text)
            if not c or c.group(1) not in CALLS:
                continue
            name, rest = c.groups()
            m = re.match(r'^(.*)\)\s+= (.*)$', rest)
            result = m.group(2) if m else '?'
            if not_replayed(name, rest, result):
                left_out[name] = left_out.get(name, 0) + 1
                continue
            n = re.match(r'^(\d+)', result)
            if n and name in READS:
                nbytes['read'] += int(n.group(1))
            if n and name in WRITES:
                nbytes['write'] += int(n.group(1))
    return summary, left_out, nbytes


def parse_replay(fname, flowop):
    with open(fname) as f:
        d = json.load(f)
    rows, nbytes = {}, {'read': 0, 'write': 0}
    for fo in d['flowops']:
        name = fo['name']
        if not name.startswith(flowop + '.'):
            continue
        kind = name[len(flowop) + 1:]
        rows[kind] = rows.get(kind, 0) + fo['ops']
        if kind in nbytes:
            nbytes[kind] += fo['read_bytes' if kind == 'read' else
                              'write_bytes']
    return rows, nbytes


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split('\n\n')[1])
    flowop = sys.argv[3] if len(sys.argv) > 3 else 'replay'
    summary, left_out, sbytes = parse_strace(sys.argv[1])
    if not summary:
        sys.exit('%s: no strace -C summary' % sys.argv[1])
    rows, rbytes = parse_replay(sys.argv[2], flowop)
    for names, calls in TYPES:
        ind = sum(summary.get(c, 0) - left_out.get(c, 0) for c in calls)
        rep = sum(rows.get(n, 0) for n in names)
        if ind or rep:
            print('%s %d %d' % ('+'.join(names), ind, rep))
    print('bytes-read %d %d' % (sbytes['read'], rbytes['read']))
    print('bytes-written %d %d' % (sbytes['write'], rbytes['write']))
    for name in sorted(left_out):
        print('# left out: %s %d' % (name, left_out[name]))


main()
