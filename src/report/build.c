/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* What this build is made with (build.h). */
#include "report/build.h"

#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#include <blkid/blkid.h>

static char mpi[128]; /* "" in fbrun */
/* the engine's asynchronous I/O, as it says (build_set_aio) */
static const char *(*aio_backend)(void), *(*aio_features)(void);

void build_set_mpi(const char *library)
{
	size_t n = 0;
	bool space = false;

	/* its first line to the first comma, its runs of blanks made one */
	for (const char *c = library ? library : "";
	     *c && *c != '\n' && *c != ',' && n + 1 < sizeof(mpi); c++) {
		if (isspace((unsigned char)*c)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < sizeof(mpi))
			mpi[n++] = ' ';
		space = false;
		mpi[n++] = *c;
	}
	mpi[n] = '\0';
}

void build_set_aio(const char *(*backend)(void),
		   const char *(*features)(void))
{
	aio_backend = backend;
	aio_features = features;
}

static const char *const names[BUILD_NFEATURES] = {
	[BUILD_AIO] = "aio",
	[BUILD_MPI] = "mpi",
	[BUILD_LIBBLKID] = "libblkid",
	[BUILD_JANSSON] = "jansson",
};

const char *build_feature_name(enum build_feature f)
{
	return f < BUILD_NFEATURES ? names[f] : "";
}

static const char *aio(void)
{
	static char buf[160];

	/* aioq says which it was compiled with */
	if (!aio_backend || strcmp(aio_backend(), "io_uring") != 0)
		return "POSIX aio";
#if defined(HAVE_LIBURING) && defined(IO_URING_VERSION_MAJOR)
	snprintf(buf, sizeof(buf), "io_uring (liburing %d.%d; %s)",
		 io_uring_major_version(), io_uring_minor_version(),
		 aio_features());
#else
	/* liburing before 2.4 does not say its version */
	snprintf(buf, sizeof(buf), "io_uring (liburing; %s)",
		 aio_features());
#endif
	return buf;
}

/* configure requires it: the device checks (engine/blockdev_probe.c) */
static const char *libblkid(void)
{
	static char buf[64];
	const char *ver = NULL, *date = NULL;

	blkid_get_library_version(&ver, &date);
	snprintf(buf, sizeof(buf), "%s", ver ? ver : "unknown version");
	return buf;
}

/* The version compiled against and, if another, the one loaded. */
static const char *jansson(void)
{
	static char buf[64];
	const char *now = JANSSON_VERSION;

#if JANSSON_VERSION_HEX >= 0x020d00
	now = jansson_version_str(); /* 2.13 and later say it */
#endif
	if (strcmp(now, JANSSON_VERSION) == 0)
		snprintf(buf, sizeof(buf), "%s", now);
	else
		snprintf(buf, sizeof(buf), "%s (built with %s)", now,
			 JANSSON_VERSION);
	return buf;
}

const char *build_feature_value(enum build_feature f)
{
	switch (f) {
	case BUILD_AIO:
		return aio();
	case BUILD_MPI:
		return mpi[0] ? mpi : NULL;
	case BUILD_LIBBLKID:
		return libblkid();
	case BUILD_JANSSON:
		return jansson();
	case BUILD_NFEATURES:
		break;
	}
	return NULL;
}

/*
 * fbrun-mpi in the directory of the running program, or "": where make
 * builds both and where both are installed, so "no MPI" in fbrun tells
 * nothing of whether the build made fbrun-mpi.
 */
static const char *mpi_beside(void)
{
	static char path[PATH_MAX + 16];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return "";
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return "";
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/fbrun-mpi", exe);
	return access(path, X_OK) == 0 ? path : "";
}

void build_print(FILE *out)
{
	fprintf(out, "fbrun %s\n", PACKAGE_VERSION);
	for (int f = 0; f < BUILD_NFEATURES; f++) {
		const char *v = build_feature_value((enum build_feature)f);
		const char *beside;

		if (v || f != BUILD_MPI) {
			fprintf(out, "%s: %s\n", names[f], v ? v : "no");
			continue;
		}
		beside = mpi_beside();
		if (*beside)
			fprintf(out, "%s: no; fbrun-mpi beside it: %s\n",
				names[f], beside);
		else
			fprintf(out, "%s: no; no fbrun-mpi beside it\n",
				names[f]);
	}
}
