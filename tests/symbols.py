#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors

"""The architecture's rules on the objects of the build, read with nm
(doc/architecture.md, "Names"): every extern symbol of a module starts
with the module's prefix, and no two modules need each other's symbols,
directly or round a longer cycle.  A module is a family of files of one
folder: x.c, every x_*.c and every file that includes x_int.h
(fileset_pick.c, and strace.c in src/trace, are their module's).
TAP on stdout.  Usage: symbols.py SRCDIR BUILDDIR"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphcheck import ok, cycles as find_cycles, done  # noqa: E402
from layering import breach, canon, header  # noqa: E402

top, build = sys.argv[1], sys.argv[2]
ALLOW = os.path.join(top, 'tests', 'symbols.supp')

# the short prefixes a module may use besides its own name (each owned by
# one module): the flowops' functions are fo_<name> as the list names
# them, their shared helpers op_; the others are older than the rule
PREFIXES = {
    'engine/fileset/fileset': ('fs_',),
    'engine/flowops/flowops': ('fo_', 'op_'),
    'engine/io/verify': ('vfy_',),
    'lang/parse': ('yy',),  # flex's and bison's own names
    'lang/ir': ('workload_',),
    'lang/rand': ('rv_',),
    'util/jsonw': ('jw_',),
    'util/msg': ('fb_',),
    'util/paths': ('path_',),
    'util/statistics': ('st_',),
    'results/stats': ('fstats_', 'hist_'),
}



INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(rel, seen):
    """The headers of ours rel includes, directly or through others."""
    path = os.path.join(top, rel)
    if rel in seen or not os.path.exists(path):
        return seen
    seen.add(rel)
    for inc in INC.findall(open(path, encoding='utf-8').read()):
        includes(header(inc), seen)
    return seen


def module(rel):
    """src/engine/fileset/fileset_pick.c -> engine/fileset/fileset: a
    folder's x.c, its x_*.c and every file that includes x_int.h (the
    inside of x; of two, the one the other includes) are module x.  The
    parser and its scanner (lang/parse: both include parse_int.h), which
    call each other by design, are one."""
    parts = canon(rel).split('/')
    folder = '/'.join(parts[1:-1])
    inside = [h for h in includes(rel, set()) if h.endswith('_int.h') and
              os.path.dirname(h) == os.path.dirname(canon(rel))]
    inner = [h for h in inside
             if not any(o != h and o in includes(h, set()) for o in inside)]
    if inner:
        return folder + '/' + os.path.basename(inner[0])[:-len('_int.h')]
    stem = os.path.splitext(parts[-1])[0]
    return folder + '/' + stem.split('_')[0]


# every object of the build made from a source of the tree (a stale one
# of a file since moved or removed has no source and is left out);
# automake names an object of a program with its own flags prog-x.o
objects = []
for d in ('src', 'grammar'):
    for root, _, names in os.walk(os.path.join(top, d)):
        for f in sorted(names):
            if not f.endswith(('.c', '.y', '.l')):
                continue
            rel = os.path.relpath(os.path.join(root, f), top)
            stem = os.path.splitext(f)[0]
            bdir = os.path.join(build, os.path.dirname(rel))
            if not os.path.isdir(bdir):
                continue
            for o in sorted(os.listdir(bdir)):
                if o == stem + '.o' or o.endswith('-' + stem + '.o'):
                    objects.append((module(rel), os.path.join(bdir, o)))

allow = {}
for line in open(ALLOW, encoding='utf-8'):
    line = line.split('#')[0].split()
    if len(line) == 2:
        allow.setdefault(line[0], set()).add(line[1])

defined = {}   # symbol -> its modules
needs = {}     # module -> the symbols it uses but does not define
fdefined, fneeds = {}, {}  # the same per object file
errors = []
for mod, obj in objects:
    try:
        out = subprocess.run(['nm', '-P', obj], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        errors.append('%s: %s' % (obj, e))
        continue
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        sym, kind = f[0], f[1]
        if sym.startswith('__'):
            continue  # the compiler's own (ASan's __odr_asan.x, ...)
        if kind == 'U':
            needs.setdefault(mod, set()).add(sym)
            fneeds.setdefault(obj, set()).add(sym)
        elif kind.isupper() and kind not in 'N':
            defined.setdefault(sym, set()).add(mod)
            fdefined.setdefault(sym, set()).add(obj)
ok(len(objects) > 50 and not errors,
   'nm reads the objects of the build (%d)' % len(objects), errors)


def prefixed(mod, sym):
    """x's symbols start x_; a module of folder f may also say f_x_
    (results/read's results_read_file)."""
    parts = mod.split('/')
    name = parts[-1]
    if sym == name or sym.startswith(name + '_'):
        return True
    fx = '_'.join(parts[-2:]) if len(parts) > 1 else name
    if sym == fx or sym.startswith(fx + '_'):
        return True
    return sym.startswith(PREFIXES.get(mod, ()))


bad = sorted('%s: %s' % (m, s) for s, mods in defined.items() for m in mods
             if not prefixed(m, s) and s not in allow.get(m, ()))
ok(not bad, "every extern symbol has its module's prefix", bad)

owners = {}
for mod, pre in PREFIXES.items():
    for p in pre:
        owners.setdefault(p, []).append(mod)
shared = ['%s: %s' % (p, ', '.join(m)) for p, m in owners.items()
          if len(m) > 1]
mods = set(m for m, _ in objects)
shared += ['%s_: %s and %s' % (m.split('/')[-1], m, o)
           for m in sorted(mods) for o, pre in PREFIXES.items()
           if m.split('/')[-1] + '_' in pre and o != m]
ok(not shared, 'no prefix belongs to two modules', shared)
stale = ['%s %s' % (m, s) for m in sorted(allow) for s in sorted(allow[m])
         if m not in defined.get(s, ())]
ok(not stale, 'every exception of symbols.supp is still defined there',
   stale)

# the modules' graph: m -> the modules defining what m uses
deps = {}
for mod in sorted(mods):
    deps[mod] = set()
    for sym in needs.get(mod, ()):
        for o in defined.get(sym, ()):
            if o != mod:
                deps[mod].add(o)


def source(mod):
    """engine/fileset/fileset -> src/engine/fileset/fileset.c"""
    return 'src/' + mod.lstrip('/') + '.c'


# the layers, on what is linked: a prototype or extern written by hand
# uses another folder without an include that tests/layers.py would see
crossed = sorted('%s -> %s (%s)' % (m, o, why) for m in deps for o in deps[m]
                 for why in [breach(source(m), source(o))] if why)
ok(not crossed, 'each folder uses the symbols of the folders below it only',
   crossed)
cycles = find_cycles(deps)
ok(not cycles, 'no two modules need each other\'s symbols (%d modules)'
   % len(deps), cycles)

# the files of a folder in one direction too: a file calls those below it
# (a shared file at the bottom, the table that names them all on top); the
# parser and its scanner call each other by design (flex and bison)
BY_DESIGN = {frozenset(('lexer', 'parser'))}


def stem(obj):
    return os.path.splitext(os.path.basename(obj))[0].split('-')[-1]


fdeps = {}
for _, obj in objects:
    fdeps[obj] = set()
    for sym in fneeds.get(obj, ()):
        for o in fdefined.get(sym, ()):
            if o != obj and os.path.dirname(o) == os.path.dirname(obj) and \
                    frozenset((stem(o), stem(obj))) not in BY_DESIGN:
                fdeps[obj].add(o)
cycles = [' -> '.join(os.path.relpath(x, build) for x in c.split(' -> '))
          for c in find_cycles(fdeps)]
ok(not cycles, 'no two files of a folder need each other\'s symbols '
   '(%d files)' % len(fdeps), cycles)
done()
