#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors

"""The architecture's rules, checked on the sources (doc/architecture.md):
every include of fbrun's own headers names its folder; a folder includes
only the folders below it, and inside the engine a sub-folder only the
sub-folders below it; no two modules (x.c with x.h) depend on each other,
directly or round a longer cycle.  TAP on stdout."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphcheck import ok, cycles as find_cycles, done  # noqa: E402
from layering import ALLOWED, ENGINE_ALLOWED, folder, subfolder, header  # noqa: E402,E501

top = sys.argv[1] if len(sys.argv) > 1 else '.'
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = {'config.h', 'parser.h'}



files = []
for d in ('src', 'grammar'):
    for root, _, names in os.walk(os.path.join(top, d)):
        for f in sorted(names):
            if re.search(r'\.(c|h|l|y)$', f):
                files.append(os.path.relpath(os.path.join(root, f), top))
# the parser and scanner bison and flex generate are not ours to check
files = [f for f in files if f not in ('grammar/parser.c', 'grammar/lexer.c',
                                       'grammar/parser.h')]


def module(path):
    """x.c and x.h are one module; x_int.h is x's inside, shared by its
    files (fileset_int.h by fileset.c, fileset_pick.c, ...)."""
    m = os.path.splitext(path)[0]
    return m[:-4] if m.endswith('_int') else m


unknown = sorted(set(folder(f) for f in files) - set(ALLOWED))
ok(not unknown, 'every folder has a place in the layers', unknown)
bad_name, bad_layer, missing, bad_sub = [], [], [], []
deps = {}
subdeps = {}
for f in files:
    src = open(os.path.join(top, f), encoding='utf-8').read()
    me = folder(f)
    mod = module(f)
    deps.setdefault(mod, set())
    for inc in INC.findall(src):
        if inc in GENERATED:
            continue
        if '/' not in inc:
            bad_name.append('%s: "%s"' % (f, inc))
            continue
        if not os.path.exists(os.path.join(top, header(inc))):
            missing.append('%s: "%s"' % (f, inc))
            continue
        them = folder(header(inc))
        if them != me and them not in ALLOWED.get(me, set()):
            bad_layer.append('%s (%s) includes "%s" (%s)' % (f, me, inc, them))
        other = module(header(inc))
        if other != mod:
            deps[mod].add(other)
        mine, theirs = subfolder(f), subfolder(header(inc))
        if mine and theirs and mine != theirs:
            subdeps.setdefault(mine, set()).add(theirs)
            if theirs not in ENGINE_ALLOWED.get(mine, set()):
                bad_sub.append('%s (engine/%s) includes "%s" (engine/%s)'
                               % (f, mine, inc, theirs))
ok(files != [], 'the sources are found (%d files)' % len(files))
# <x/y.h> finds our headers too (through -I src): the same rules hold, so
# it is refused rather than left unchecked
ANGLE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)
angled = ['%s: <%s>' % (f, inc) for f in files
          for inc in ANGLE.findall(open(os.path.join(top, f),
                                        encoding='utf-8').read())
          if os.path.exists(os.path.join(top, 'src', inc)) or
          os.path.exists(os.path.join(top, inc))]
ok(not angled, 'our headers are included with quotes, never <>', angled)
ok(not bad_name, 'every include of our headers names its folder', bad_name)
ok(not missing, 'every included header exists', missing)
ok(not bad_layer, 'each folder includes only the folders below it', bad_layer)
subs = sorted(set(filter(None, (subfolder(f) for f in files))))
unknown = [x for x in subs if x not in ENGINE_ALLOWED]
ok(not unknown, "every engine sub-folder has a place in the engine's layers",
   unknown)
ok(not bad_sub, 'each engine sub-folder includes only the sub-folders '
   'below it', bad_sub)

# a prototype written in a .c file of a function another file defines
# uses that file without including its header, unseen by the rules above
STRIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|'
                   r"'(\\.|[^'\\\n])*'", re.S)
NAME = re.compile(r'([A-Za-z_]\w*)\s*\(')


def file_scope(path):
    """The statements at file scope of a .c file, each up to its ';' or
    '{', without comments, strings or preprocessor lines."""
    text = STRIP.sub(' ', open(os.path.join(top, path),
                               encoding='utf-8').read())
    text = re.sub(r'^\s*#(.*\\\n)*.*$', ' ', text, flags=re.M)
    depth, cur, out = 0, [], []
    for ch in text:
        if depth == 0:
            if ch in ';{':
                out.append((''.join(cur).strip(), ch))
                cur = []
            else:
                cur.append(ch)
        depth += (ch == '{') - (ch == '}')
    return out


defs, decls = {}, []
for f in files:
    if not f.endswith('.c'):
        continue
    for stmt, end in file_scope(f):
        if re.match(r'(static|typedef)\b', stmt):
            continue
        m = NAME.search(stmt)
        if not m or '=' in stmt[:m.start()]:
            # an object: defined here, or declared extern for another's
            obj = re.findall(r'([A-Za-z_]\w*)\s*(?:\[[^]]*\]\s*)*(?:=|$)',
                             stmt.split('=')[0].strip())
            if obj and stmt.startswith('extern'):
                decls.append((f, obj[-1], stmt))
            elif obj and end == ';':
                defs.setdefault(obj[-1], set()).add(f)
            continue
        if end == '{':
            defs.setdefault(m.group(1), set()).add(f)
        elif end == ';':
            decls.append((f, m.group(1), stmt))
borrowed = ['%s: %s' % (f, ' '.join(stmt.split())) for f, name, stmt in decls
            if defs.get(name, {f}) - {f}]
ok(not borrowed, 'no .c file declares what another file defines (include '
   'its header)', borrowed)

# cycles between modules
cycles = find_cycles(deps)
ok(not cycles, 'no two modules depend on each other (%d modules)' % len(deps),
   cycles)

# sizes that keep a file readable in one sitting (doc/architecture.md):
# no source over 600 lines, no function over 100 (a body from a "{" in
# the first column to its "}")
MAX_LINES, MAX_BODY = 600, 100
long_files, long_fns = [], []
for f in files:
    lines = open(os.path.join(top, f), encoding='utf-8').read().split('\n')
    if len(lines) - 1 > MAX_LINES:
        long_files.append('%s: %d lines' % (f, len(lines) - 1))
    start = None
    for i, line in enumerate(lines):
        if line == '{':
            start = i
        elif line == '}' and start is not None:
            if i - start + 1 > MAX_BODY:
                long_fns.append('%s:%d: %s (%d lines)' % (
                    f, start, lines[start - 1].strip(), i - start + 1))
            start = None
ok(not long_files, 'no source is over %d lines' % MAX_LINES, long_files)
ok(not long_fns, 'no function is over %d lines' % MAX_BODY, long_fns)

# the layers themselves: two folders never use each other
cycles = find_cycles({k: v for k, v in ALLOWED.items()})
ok(not cycles, 'no two folders may include each other (%d folders)'
   % len(ALLOWED), cycles)

# the same between the engine's sub-folders, as the includes have them
cycles = find_cycles(subdeps)
ok(not cycles, "no two of the engine's sub-folders depend on each other "
   '(%d sub-folders)' % len(subs), cycles)
done()
