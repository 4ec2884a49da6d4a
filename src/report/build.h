/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What this build of fbrun is made with: its version and the libraries
 * that decide what it can do (the aio engine, MPI, libblkid, jansson),
 * for --version and for the results JSON, so a run's file says which
 * build measured it.
 */
#ifndef FBRUN_BUILD_H
#define FBRUN_BUILD_H

#include <stdio.h>

enum build_feature {
	BUILD_AIO, /* "io_uring (liburing)" or "POSIX aio" */
	BUILD_MPI, /* fbrun-mpi's MPI library; none in fbrun */
	BUILD_LIBBLKID, /* the libblkid in use, if the build has it */
	BUILD_JANSSON, /* the jansson fbrun compare reads JSON with */
	BUILD_NFEATURES,
};

/*
 * fbrun-mpi: the MPI library it runs with (MPI_Get_library_version's
 * first line); fbrun leaves it unset.  Called once, before any thread.
 */
void build_set_mpi(const char *library);

/*
 * The engine's asynchronous I/O: its backend's name ("io_uring" or
 * another) and the setup flags of its rings, asked when a line is
 * printed (engine/io/aioq.h's aioq_backend and aioq_features, handed in
 * by the command line, as the printers stand below the engine).
 */
void build_set_aio(const char *(*backend)(void),
		   const char *(*features)(void));

/* The feature's key in the JSON ("aio") and --version's lines. */
const char *build_feature_name(enum build_feature f);
/*
 * What the build has, or NULL where it has none.  (The JSON writes it in
 * report.c: jansson's names and report/json.h's would clash here.)
 */
const char *build_feature_value(enum build_feature f);

/*
 * --version: "fbrun VERSION", then a "name: value" line per feature; in
 * fbrun the mpi line also says whether fbrun-mpi is in its directory.
 */
void build_print(FILE *out);

#endif
