/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Where results.[ch] look for the monitor module since the engine's split
 * into sub-folders (doc/architecture.md): it is engine/run/monitor.h.  Only
 * results.[ch] include this; it goes when they leave the engine.
 */
#include "engine/run/monitor.h"
