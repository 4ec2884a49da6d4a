#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The architecture's rules on the build's objects (tests/symbols.py):
# every extern symbol has its module's prefix, no cycle between modules
# at the symbol level.  Run from the build directory, as make check does.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "1..0 # SKIP nm is not installed (binutils)"
	exit 0
fi
exec python3 "${srcdir:-.}/tests/symbols.py" "${srcdir:-.}" .
