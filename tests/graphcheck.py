# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors

"""What tests/layers.py and tests/symbols.py share: TAP lines, and the
cycles of a dependency graph (a dict: node -> the nodes it needs)."""
import sys

_n = 0
_failed = 0


def ok(cond, desc, detail=()):
    """One TAP line; the detail lines follow a failure as comments."""
    global _n, _failed
    _n += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', _n, desc))
    if not cond:
        _failed += 1
        for d in detail:
            print('# ' + d)


def cycles(deps):
    """Each cycle a depth-first search meets, as 'a -> b -> a'."""
    found = []
    state = {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for o in sorted(deps.get(m, ())):
            if state.get(o) == 1:
                found.append(' -> '.join(stack[stack.index(o):] + [o]))
            elif not state.get(o):
                visit(o, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(deps):
        if not state.get(m):
            visit(m, [])
    return found


def done():
    """The plan line, and the exit status."""
    print('1..%d' % _n)
    sys.exit(1 if _failed else 0)
