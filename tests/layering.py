# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors

"""The layers of doc/architecture.md, as data: tests/layers.py checks them
on the includes, tests/symbols.py on the symbols the objects use."""

# folder -> the folders it may use (besides itself)
ALLOWED = {
    'util': set(),
    'results': {'util'},
    'lang': {'trace', 'util'},
    'engine': {'lang', 'results', 'trace', 'util'},
    'report': {'results', 'util'},
    'compare': {'results', 'util'},
    'trace': {'util'},
    'bonnie': {'engine', 'lang', 'results', 'util'},
    'mpi': {'engine', 'util'},
    'cli': {'engine', 'lang', 'mpi', 'report', 'results', 'util'},
    'cmd': {'bonnie', 'cli', 'compare', 'engine', 'lang', 'mpi', 'report',
            'results', 'trace', 'util'},
    'main': {'cmd', 'mpi', 'report', 'util'},
}
# the engine's sub-folders -> those each may use (besides itself);
# 'engine' is the files in src/engine/ itself, the statements on top.
# results is src/engine/results.[ch]: the workers' counters collected.
ENGINE_ALLOWED = {
    'sys': set(),
    'io': {'sys'},
    'fileset': {'sys', 'io'},
    'worker': {'sys', 'io', 'fileset'},
    'flowops': {'sys', 'io', 'fileset', 'worker'},
    'run': {'sys', 'io', 'fileset', 'worker', 'flowops'},
    'results': {'sys', 'io', 'fileset', 'worker', 'flowops', 'run'},
    'engine': {'sys', 'io', 'fileset', 'worker', 'flowops', 'run',
               'results'},
}


def canon(path):
    """grammar/ holds the language's grammar and scanner, built into
    lang: its files are lang's (grammar/parser.y -> src/lang/parser.y)."""
    return 'src/lang/' + path[len('grammar/'):] \
        if path.startswith('grammar/') else path


def header(inc):
    """The file an include of ours names, from the top of the tree:
    "engine/engine.h" -> src/engine/engine.h, "grammar/x.h" as it is."""
    return inc if inc.startswith('grammar/') else 'src/' + inc


def folder(path):
    """src/engine/fileset/x.c -> engine; src/main.c -> main."""
    parts = canon(path).split('/')
    return parts[1] if len(parts) > 2 else 'main'


def subfolder(path):
    """The engine's sub-folder of src/engine/..., None outside it."""
    parts = canon(path).split('/')
    if parts[:2] != ['src', 'engine']:
        return None
    if len(parts) > 3:
        return parts[2]
    stem = parts[2].rsplit('.', 1)[0]
    return stem if stem == 'results' else 'engine'


def breach(a, b):
    """Why a source at path a may not use one at path b, or None."""
    fa, fb = folder(a), folder(b)
    if fa != fb and fb not in ALLOWED.get(fa, set()):
        return '%s uses %s' % (fa, fb)
    sa, sb = subfolder(a), subfolder(b)
    if sa and sb and sa != sb and sb not in ENGINE_ALLOWED.get(sa, set()):
        return 'engine/%s uses engine/%s' % (sa, sb)
    return None
