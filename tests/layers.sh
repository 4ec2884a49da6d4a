#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The architecture's rules on the sources (tests/layers.py): qualified
# includes, folders in layers, no cycle between modules.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
exec python3 "${srcdir:-.}/tests/layers.py" "${srcdir:-.}"
