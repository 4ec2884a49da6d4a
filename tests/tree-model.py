#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors

"""The tree filebench 1.5 lays out for a fileset, modelled on its own.

Written from the description of filebench's population algorithm (its
fileset.c, doc/running.md "Fileset trees"), not from fbrun's code, for
tests/tree.sh to hold fbrun's trees against.  bench/fidelity checks the
same figures against filebench itself.

    tree-model.py NAME:ENTRIES:DIRWIDTH:DIRGAMMA:LEAFDIRS[:SIZE] ...

One argument per fileset, in definition order.  SIZE is a byte count, or
gamma/MEAN/SHAPE for cvar(type=cvar-gamma,parameters="mean:MEAN;gamma:SHAPE").
Prints, per fileset, the lines fbrun logs for it (without the time stamp)
and what is on disk once every entry exists: the number of files and of
directories (leaf directories included) at each depth below the root,
and the bytes of all the files.
"""
import math
import sys

sys.setrecursionlimit(20000)


class Drand48:
    """drand48's linear congruence from the C library's start (glibc and
    musl start from 0; filebench never seeds it)."""

    def __init__(self):
        self.x = 0

    def __call__(self):
        self.x = (0x5DEECE66D * self.x + 0xB) % (1 << 48)
        return self.x / float(1 << 48)


def gamma(u, a):
    """Gamma(a, 1) by Knuth's algorithms (TAOCP 2, 3.4.1), as filebench's
    gamma_dist.c draws it: algorithm A above 1, exercise 16's method at or
    below 1.  What matters here is that the uniforms are used in the same
    order, or the stream falls out of step."""
    if a > 1:
        r = math.sqrt(2 * a - 1)
        while True:
            y = math.tan(math.pi * u())
            x = r * y + a - 1
            if x <= 0:
                continue
            if u() <= (1 + y * y) * math.exp((a - 1) * math.log(x / (a - 1)) - r * y):
                return x
    p = math.e / (a + math.e)
    while True:
        u1 = u()
        v = u()
        while v == 0:
            v = u()
        if u1 < p:
            x = v ** (1 / a)
            q = math.exp(-x)
        else:
            x = 1 - math.log(v)
            q = x ** (a - 1)
        if u() < q:
            return x


class Fileset:
    def __init__(self, spec):
        f = spec.split(":")
        self.name = f[0]
        self.entries, self.width, self.dirgamma, self.leafdirs = map(int, f[1:5])
        self.size = f[5] if len(f) > 5 else "0"
        self.files = self.leaves = self.dirs = self.depths = self.bytes = 0
        self.file_at, self.dir_at = {}, {}

    def size_of(self, u):
        if not self.size.startswith("gamma/"):
            return int(self.size)
        mean, shape = map(float, self.size.split("/")[1:])
        return int(max(0.0, (mean / shape) * gamma(u, shape)))

    def populate(self, u):
        n = self.entries + self.leafdirs
        self.g = self.dirgamma / 1000.0
        # not a number for n <= 1 or width 1: every directory is a leaf
        self.meandepth = math.log(n) / math.log(self.width) if n > 1 and self.width > 1 else 0.0
        self.subdir(u, None, 0)

    def draw(self, u, mean):
        return gamma(u, self.g) * (mean / self.g) if self.g > 0 else mean

    def subdir(self, u, parent, depth):
        """One directory and what it holds; the root (parent None) goes
        on until every file, then every leaf directory, exists."""
        depth += 1
        self.dirs += 1
        if parent is not None:
            self.dir_at[depth - 1] = self.dir_at.get(depth - 1, 0) + 1
        rdepth = max(1, int(self.draw(u, self.meandepth)))
        rwidth = self.draw(u, self.width) or 1
        leaf = parent is not None and depth >= rdepth
        root = parent is None
        for want, kind in ((self.entries, "file"), (self.leafdirs, "leaf")):
            i = 1
            while (root or i < rwidth + 1) and self.count(kind) < want:
                if leaf:
                    self.add(u, kind, depth)
                else:
                    self.subdir(u, self, depth)
                i += 1

    def count(self, kind):
        return self.files if kind == "file" else self.leaves

    def add(self, u, kind, depth):
        self.depths += depth
        if kind == "file":
            self.files += 1
            self.file_at[depth] = self.file_at.get(depth, 0) + 1
            self.bytes += self.size_of(u)
        else:
            self.leaves += 1
            self.dir_at[depth] = self.dir_at.get(depth, 0) + 1

    def report(self):
        n = self.files + self.leaves
        print("%s populated: %d files, avg. dir. width = %d, avg. dir. depth = %.1f, "
              "%d leafdirs, %.3fMB total size"
              % (self.name, self.entries, self.width, self.meandepth, self.leafdirs,
                 self.bytes / 1048576.0))
        print("%s tree as made: %d directories, mean width %.1f, mean depth %.1f (the avg. above: filebench's aim)"
              % (self.name, self.dirs, (self.dirs - 1 + n) / self.dirs,
                 self.depths / n if n else 0.0))
        for kind, at in (("files", self.file_at), ("dirs", self.dir_at)):
            print("%s %s at depth: %s" % (self.name, kind,
                  " ".join("%d:%d" % (d, at[d]) for d in sorted(at))))
        print("%s bytes: %d" % (self.name, self.bytes))


def main():
    sets = [Fileset(a) for a in sys.argv[1:]]
    u = Drand48()
    for fs in reversed(sets):  # filebench's list: the last defined first
        fs.populate(u)
    for fs in sets:
        fs.report()


main()
