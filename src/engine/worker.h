/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Where results.[ch] look for the worker module since the engine's split
 * into sub-folders (doc/architecture.md): it is engine/worker/worker.h.  Only
 * results.[ch] include this; it goes when they leave the engine.
 */
#include "engine/worker/worker.h"
