/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What a block device holds, as libblkid finds it (blockdev.h): every
 * superblock (file systems, RAID and volume manager members, encrypted
 * volumes, swap) and partition table signature it knows, the way blkid
 * -p and wipefs see them.  A list kept here would fall behind: the
 * formats that matter are the ones libblkid's maintainers keep up with.
 */
#include "engine/io/blockdev.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "util/util.h"

/* Matches named in a message at most; more are counted. */
#define MAX_NAMED 6

static const char *value(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	return blkid_probe_lookup_value(pr, name, &v, NULL) == 0 ? v : NULL;
}

/* What blkid's USAGE says the superblock is, with its article. */
static const char *noun(const char *usage)
{
	if (usage && strcmp(usage, "filesystem") == 0)
		return "a file system";
	if (usage && strcmp(usage, "raid") == 0)
		return "a RAID or volume manager member";
	if (usage && strcmp(usage, "crypto") == 0)
		return "an encrypted volume";
	return "a signature";
}

/* A label as it may be printed: the device's bytes are anyone's. */
static void clean_label(char *out, size_t len, const char *label)
{
	size_t i;

	for (i = 0; label[i] && i + 1 < len; i++)
		out[i] = label[i] >= ' ' && label[i] <= '~' && label[i] != '\'' ?
				 label[i] :
				 '?';
	out[i] = '\0';
}

/* The match blkid_do_probe just gave: "a file system (ext4, label 'x')". */
static char *describe(blkid_probe pr)
{
	const char *pt = value(pr, "PTTYPE"), *type = value(pr, "TYPE");
	const char *usage = value(pr, "USAGE"), *ver = value(pr, "VERSION");
	const char *label = value(pr, "LABEL");
	char lab[40] = "";

	if (pt)
		return xasprintf("a partition table (%s)", pt);
	/* a version says which RAID or LUKS header; a file system's, little */
	if (!usage || strcmp(usage, "filesystem") == 0)
		ver = NULL;
	if (label && *label)
		clean_label(lab, sizeof(lab), label);
	return xasprintf("%s (%s%s%s%s%s%s%s)", noun(usage),
			 type ? type : "unknown", ver ? " " : "", ver ? ver : "",
			 lab[0] ? ", label '" : "", lab, lab[0] ? "'" : "",
			 value(pr, "SBBADCSUM") ? ", its checksum wrong" : "");
}

/* "a", "a and b", "a, b and c"; frees the parts. */
static char *join(char **part, unsigned n, unsigned more)
{
	char *s = xstrdup(part[0]);

	for (unsigned i = 1; i < n; i++) {
		char *t = xasprintf("%s%s%s", s,
				    i + 1 == n && !more ? " and " : ", ",
				    part[i]);

		free(s);
		s = t;
	}
	if (more) {
		char *t = xasprintf("%s and %u more", s, more);

		free(s);
		s = t;
	}
	for (unsigned i = 0; i < n; i++)
		free(part[i]);
	return s;
}

/* A new probe of fd: superblocks and partition tables, all it reports. */
static blkid_probe probe_new(int fd)
{
	blkid_probe pr = blkid_new_probe();
	int ssz = 0;

	if (!pr)
		return NULL;
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		blkid_free_probe(pr);
		return NULL;
	}
	/* GPT is found at LBA 1: byte 4096 on a 4Kn disk, not 512 */
	if (ioctl(fd, BLKSSZGET, &ssz) == 0 && ssz > 0)
		blkid_probe_set_sectorsize(pr, (unsigned)ssz);
	blkid_probe_enable_superblocks(pr, 1);
	/* BADCSUM: a damaged superblock still says whose the device is */
	blkid_probe_set_superblocks_flags(
		pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
			    BLKID_SUBLKS_VERSION | BLKID_SUBLKS_LABEL |
			    BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	/* FORCE_GPT: a GPT whose protective MBR is gone is a GPT all the same */
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC |
						     BLKID_PARTS_FORCE_GPT);
	return pr;
}

int blockdev_signatures(int fd, char **what)
{
	char *part[MAX_NAMED];
	unsigned n = 0, more = 0;
	blkid_probe pr;
	int rc;

	*what = NULL;
	errno = 0;
	if (!(pr = probe_new(fd)))
		return errno = errno ? errno : ENOMEM, -1;
	/*
	 * blkid_do_probe, as wipefs uses it, gives every match one after
	 * another (blkid_do_fullprobe stops at the first, or calls two
	 * file systems "ambivalent" without naming them)
	 */
	while ((rc = blkid_do_probe(pr)) == 0) {
		if (n < MAX_NAMED)
			part[n++] = describe(pr);
		else
			more++;
	}
	blkid_free_probe(pr);
	if (rc < 0) {
		int err = errno ? errno : EIO;

		for (unsigned i = 0; i < n; i++)
			free(part[i]);
		return errno = err, -1;
	}
	if (!n)
		return 0;
	*what = join(part, n, more);
	return 1;
}
