/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie's command line, for its flow in bonnie.c: bonnie++
 * 2.00's options and their meanings (doc/bonnie.md says where fbrun
 * differs), its size rules, and the switch to another user.
 */
#include "cmd/bonnie_int.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/bonnie.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/util.h"

enum bon_opt_id {
#define OPTION(id, ...) BON_OPT_##id,
#include "cmd/bonnie_option_list.h"
#undef OPTION
};

static const struct optable_row bon_rows[] = {
#define OPTION OPTABLE_ROW
#include "cmd/bonnie_option_list.h"
#undef OPTION
};

const struct optable bonnie_options = {
	.command = "bonnie",
	OPTABLE_TABLE(bon_rows),
	.style = OPTABLE_SYNOPSIS,
	.head = "usage: fbrun bonnie",
	.tail = "Runs bonnie++'s tests (the phase scripts in bonnie/: see\n"
		"`fbrun --show bonnie/putc`) and prints its table and CSV line.\n",
};

static int bad(const char *opt, const char *arg, const char *why)
{
	return fb_error("%s '%s': %s", opt, arg, why);
}

/* A number without sign; a byte count may end in k, m, g or t (parse_int). */
static int number(const char *s, size_t len, bool bytes, uint64_t *out)
{
	int64_t v;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return -1;
	if (!bytes && (s[len - 1] < '0' || s[len - 1] > '9'))
		return -1;
	if (parse_int(s, len, &v) != NUM_OK)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* Split arg at ':' into at most max fields; returns how many. */
static int fields(const char *arg, const char **f, size_t *len, int max)
{
	int n = 0;

	for (const char *p = arg;; n++) {
		const char *e = strchr(p, ':');

		if (n == max)
			return -1;
		f[n] = p;
		len[n] = e ? (size_t)(e - p) : strlen(p);
		if (!e)
			return n + 1;
		p = e + 1;
	}
}

/* A size in MiB: a number, m (MiB, the unit), g (GiB) or t (TiB). */
static int size_mib(const char *s, size_t len, uint64_t *out)
{
	uint64_t mul = 1;

	if (len > 1) {
		switch (s[len - 1] | 0x20) {
		case 'm': len--; break;
		case 'g': mul = 1024; len--; break;
		case 't': mul = 1048576; len--; break;
		default: break;
		}
	}
	/* the byte count must fit too */
	if (number(s, len, false, out) < 0 || *out > UINT64_MAX / 1048576 / mul)
		return -1;
	*out *= mul;
	return 0;
}

/* -s size(MiB)[:chunk[:seeks[:seekers]]] */
static int opt_size(struct bonnie *b, const char *arg)
{
	const char *f[4];
	size_t len[4];
	uint64_t v;
	int n = fields(arg, f, len, 4);

	if (n < 0)
		return bad("-s", arg, "expected size[:chunk[:seeks[:seekers]]]");
	if (size_mib(f[0], len[0], &v) < 0)
		return bad("-s", arg, "size is a number of MiB, optionally "
				      "with m, g or t");
	b->c.size_mib = v;
	if (n > 1 && len[1]) {
		if (number(f[1], len[1], true, &v) < 0 || v < 256 ||
		    v > 1048576 || (v & (v - 1)))
			return bad("-s", arg, "chunk must be 256 to 1m bytes, "
					      "a power of two");
		b->c.chunk = (unsigned)v;
	}
	if (n > 2 && len[2]) {
		if (number(f[2], len[2], true, &v) < 0 || v == 0 ||
		    v > UINT32_MAX)
			return bad("-s", arg, "seeks must be a positive number");
		b->c.seeks = (unsigned)v;
	}
	if (n > 3 && len[3]) {
		if (number(f[3], len[3], false, &v) < 0 || v == 0 || v > 1000)
			return bad("-s", arg, "seekers must be 1 to 1000");
		b->c.seekers = (unsigned)v;
	}
	b->size_given = true;
	return 0;
}

/* -n number(x1024)[:max[:min[:dirs[:chunk]]]] */
static int opt_files(struct bonnie *b, const char *arg)
{
	const char *f[5];
	size_t len[5];
	uint64_t v;
	int n = fields(arg, f, len, 5);

	if (n < 0)
		return bad("-n", arg,
			   "expected number[:max[:min[:dirs[:chunk]]]]");
	/* the number counts 1024s of files; m: 1024 of those */
	if (len[0] > 1 && (f[0][len[0] - 1] | 0x20) == 'm') {
		if (number(f[0], len[0] - 1, false, &v) < 0 || v > 1000000)
			return bad("-n", arg, "the number of files (x1024) "
					      "must be a number");
		v *= 1024;
	} else if (number(f[0], len[0], false, &v) < 0) {
		return bad("-n", arg, "the number of files (x1024) must be a "
				      "number");
	}
	if (v > 1000000)
		return bad("-n", arg, "more than 1024 million files");
	b->c.files = (unsigned)v;
	if (n > 1 && len[1] && f[1][0] == '-')
		return bad("-n", arg, "hard links and symbolic links (max -1 "
				      "and -2) are not supported");
	if (n > 1 && len[1] && number(f[1], len[1], true, &b->c.max_size) < 0)
		return bad("-n", arg, "max is a size in bytes (k, m, g)");
	if (n > 2 && len[2] && number(f[2], len[2], true, &b->c.min_size) < 0)
		return bad("-n", arg, "min is a size in bytes (k, m, g)");
	if (b->c.min_size > b->c.max_size)
		return bad("-n", arg, "min is larger than max");
	if (n > 3 && len[3]) {
		if (number(f[3], len[3], false, &v) < 0 || v >= 100000)
			return bad("-n", arg, "dirs must be below 100000");
		b->c.dirs = (unsigned)v;
	}
	if (n > 4 && len[4]) {
		if (number(f[4], len[4], true, &v) < 0 || v == 0 ||
		    v > 1048576)
			return bad("-n", arg, "chunk must be 1 to 1m bytes");
		b->c.file_chunk = (unsigned)v;
	}
	return 0;
}

static int opt_uint(const char *opt, const char *arg, uint64_t max,
		    uint64_t *out)
{
	if (number(arg, strlen(arg), false, out) < 0 || *out > max) {
		char why[64];

		snprintf(why, sizeof(why), "expected a number up to %" PRIu64,
			 max);
		return bad(opt, arg, why);
	}
	return 0;
}

static uint64_t ram_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	return pages > 0 && psize > 0 ?
		       (uint64_t)pages * (uint64_t)psize / 1048576 :
		       0;
}

/* An option of bonnie_options into arg, a struct bonnie (optable_take). */
static int take(void *arg, int row, char *val)
{
	struct bonnie *b = arg;
	uint64_t v;
	int rc = 0;

	switch (row) {
	case BON_OPT_DIR: b->dir = val; break;
	case BON_OPT_SIZE: rc = opt_size(b, val); break;
	case BON_OPT_FILES: rc = opt_files(b, val); break;
	case BON_OPT_MACHINE:
		snprintf(b->c.machine, sizeof(b->c.machine), "%s", val);
		break;
	case BON_OPT_RAM:
		rc = opt_uint("-r", val, UINT32_MAX, &b->c.ram_mib);
		b->ram_given = true;
		break;
	case BON_OPT_ITERATIONS:
		rc = opt_uint("-x", val, 100000, &v);
		if (rc == 0 && v == 0)
			rc = bad("-x", val, "expected at least 1");
		b->iterations = (unsigned)v;
		b->iterations_given = true;
		break;
	case BON_OPT_QUIET: b->quiet = true; break;
	case BON_OPT_BYTES:
		b->c.byte_mib = 0;
		if (val) {
			rc = opt_uint("-f", val, 1048576, &v);
			b->c.byte_mib = (unsigned)v;
		}
		break;
	case BON_OPT_FSYNC: b->c.fsync_each = true; break;
	case BON_OPT_DIRECT: b->c.direct = true; break;
	case BON_OPT_SEED:
		rc = opt_uint("-z", val, UINT32_MAX, &b->c.seed);
		break;
	case BON_OPT_CONCURRENCY:
		rc = opt_uint("-c", val, 200, &v);
		if (rc == 0 && v == 0)
			rc = bad("-c", val, "expected 1 to 200");
		b->c.concurrency = (unsigned)v;
		break;
	case BON_OPT_USER: b->user = val; break;
	case BON_OPT_GROUP: b->group = val; break;
	case BON_OPT_SEMAPHORE:
	case BON_OPT_SYNC:
	case BON_OPT_RANDFILE:
		return fb_error("option '-%c' is not supported "
				"(semaphores and random-number files of "
				"bonnie++)",
				bon_rows[row].letter);
	case BON_OPT_FORMAT:
		if (strcmp(val, "2.00") && strcmp(val, "2.00a") &&
		    strcmp(val, "1.96"))
			rc = bad("--format", val, "expected 2.00 or 1.96");
		b->c.text_layout = strcmp(val, "1.96") ? 200 : 196;
		break;
	case BON_OPT_CSV:
		if (strcmp(val, "1.96") && strcmp(val, "1.98"))
			rc = bad("--csv-format", val, "expected 1.96 or 1.98");
		b->c.csv_layout = val[3] == '6' ? 196 : 198;
		break;
	case BON_OPT_RANDOM: b->c.random_data = true; break;
	case BON_OPT_DRY_RUN: b->dry_run = true; break;
	}
	return rc;
}

int bonnie_parse(struct bonnie *b, int argc, char **argv)
{
	int rc = optable_parse(&bonnie_options, argc, argv, take, b);

	if (rc)
		return rc;
	if (optind < argc) {
		return fb_error("unexpected argument '%s'", argv[optind]);
	}
	return 0;
}

int bonnie_check_sizes(struct bonnie *b)
{
	struct bon_config *c = &b->c;

	/* bonnie++ calls this a usage error too */
	if (b->size_given && c->size_mib == 0 && c->files == 0)
		return fb_error("-s 0 and -n 0: nothing to test");
	if (!b->size_given) {
		c->size_mib = 2 * c->ram_mib > 300 ? 2 * c->ram_mib : 300;
		if (c->size_mib % 1024 > 512)
			c->size_mib += 1024 - c->size_mib % 1024;
	} else if (c->ram_mib && c->size_mib &&
		   c->size_mib * c->concurrency < 2 * c->ram_mib) {
		return fb_error("file size should be double RAM for good "
				"results, RAM is %" PRIu64 "M (use -r to say "
				"otherwise, -r 0 to skip this check)",
				c->ram_mib);
	}
	if (c->size_mib && c->size_mib * 1048576 / c->chunk == 0) {
		return fb_error("-s %" PRIu64 "M is smaller than one chunk",
				c->size_mib);
	}
	if (c->byte_mib > c->size_mib)
		c->byte_mib = (unsigned)c->size_mib;
	if (c->ram_mib && (uint64_t)c->files * 1024 * 37 * 2 >
				  c->ram_mib * 1048576) {
		return fb_error("-n %u: too many files for %" PRIu64 "M of RAM",
				c->files, c->ram_mib);
	}
	return 0;
}

int bonnie_switch_user(struct bonnie *b)
{
	char user[256] = "", *colon;
	const char *group = b->group;
	struct passwd *pw = NULL;
	gid_t gid;

	if (b->user) {
		snprintf(user, sizeof(user), "%s", b->user);
		colon = strchr(user, ':');
		if (colon) {
			*colon = '\0';
			group = b->group ? b->group : colon + 1;
		}
	}
	if (!user[0] && !group)
		return 0;
	if (geteuid() != 0)
		return fb_error("-u and -g need root");
	if (user[0] && !(pw = getpwnam(user)))
		return fb_error("-u: no user '%s'", user);
	gid = pw ? pw->pw_gid : getegid();
	if (group && group[0]) {
		struct group *gr = getgrnam(group);

		if (!gr)
			return fb_error("no group '%s'", group);
		gid = gr->gr_gid;
	}
	if (setgroups(0, NULL) < 0 || setgid(gid) < 0 ||
	    (pw && setuid(pw->pw_uid) < 0))
		return fb_error("cannot switch to '%s': %s",
				user[0] ? user : group, strerror(errno));
	return 0;
}

void bonnie_defaults(struct bonnie *b)
{
	struct utsname u;

	memset(b, 0, sizeof(*b));
	b->dir = ".";
	b->iterations = 1;
	b->c.concurrency = 1;
	b->c.chunk = 8192;
	b->c.seeks = 8192;
	b->c.seekers = 5;
	b->c.byte_mib = 3;
	b->c.files = 16;
	b->c.dirs = 0;
	b->c.file_chunk = 8192;
	b->c.csv_layout = 198;
	b->c.text_layout = 200;
	b->c.ram_mib = ram_mib();
	if (uname(&u) == 0)
		snprintf(b->c.machine, sizeof(b->c.machine), "%s", u.nodename);
}
