/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Data patterns: spellings, and the generator's promises per write. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/io/datagen.h"
#include "tap.h"

static void spellings(void)
{
	static const char *const good[] = { "zeros", "bonnie", "random",
					    "compress=0", "compress=50",
					    "compress=99" };
	static const char *const bad[] = { "zero", "compress", "compress=",
					   "compress=100", "compress=-1",
					   "compress=5x", "" };
	struct datapat p;
	char err[160], buf[32];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = datapat_parse(good[i], &p, err, sizeof(err));

		datapat_format(buf, sizeof(buf), p);
		ok(rc == 0 && strcmp(buf, good[i]) == 0,
		   "'%s' parses and formats back", good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(datapat_parse(bad[i], &p, err, sizeof(err)) < 0,
		   "'%s' is refused: %s", bad[i], err);
	datapat_parse("zero", &p, err, sizeof(err));
	ok(strstr(err, "did you mean 'zeros'?") != NULL, "zero: %s", err);
	datapat_format(buf, sizeof(buf), (struct datapat){ DATA_DEFAULT, 0 });
	is_str(buf, "default", "DATA_DEFAULT formats as default");
	p = datapat_pick((struct datapat){ DATA_DEFAULT, 0 },
			 (struct datapat){ DATA_COMPRESS, 20 },
			 (struct datapat){ DATA_ZEROS, 0 });
	ok(p.kind == DATA_COMPRESS && p.compress_pct == 20,
	   "pick: the first that is set wins");
	ok(datagen_new((struct datapat){ DATA_DEFAULT, 0 }, 1) == NULL,
	   "no generator for DATA_DEFAULT");
}

static void bonnie(void)
{
	struct datagen *g = datagen_new((struct datapat){ DATA_BONNIE, 0 }, 1);
	const unsigned char *b = NULL;
	int ones = 0, twos = 0;

	/* one byte more per write; after 16 writes of 16 all are 1, then 2 */
	for (int w = 0; w < 20; w++)
		b = (const unsigned char *)datagen_next(g, 16);
	for (int i = 0; i < 16; i++) {
		ones += b[i] == 1;
		twos += b[i] == 2;
	}
	ok(ones == 12 && twos == 4, "bonnie: 20 writes of 16: 4 bytes at 2, "
				    "12 at 1 (%d, %d)", twos, ones);
	datagen_free(g);
}

static void pool(enum datapat_kind kind, int pct)
{
	struct datagen *g = datagen_new((struct datapat){ kind, pct }, 7);
	const char *a = datagen_next(g, 8192), *b;
	char *copy = malloc(8192);
	int aligned = 1, same = 0, zeros = 0;

	memcpy(copy, a, 8192);
	for (int w = 0; w < 300; w++) {
		b = datagen_next(g, 8192);
		aligned &= ((uintptr_t)b % 4096) == 0;
		same |= memcmp(b, copy, 4096) == 0 ||
			memcmp(b + 4096, copy + 4096, 4096) == 0;
	}
	for (int i = 0; i < 4096; i++)
		zeros += b[i] == 0;
	ok(aligned, "%s: block-sized writes get 4096-aligned data",
	   kind == DATA_RANDOM ? "random" : "compress");
	ok(!same, "%s: no 4 KiB block of 300 later writes repeats the first",
	   kind == DATA_RANDOM ? "random" : "compress");
	if (kind == DATA_COMPRESS)
		ok(zeros >= 4096 * pct / 100 - 8 && zeros <= 4096 * pct / 100 + 40,
		   "compress=%d: %d of 4096 bytes are zero", pct, zeros);
	else
		ok(zeros < 64, "random: %d of 4096 bytes are zero", zeros);
	ok(((uintptr_t)datagen_next(g, 3000) % 512) == 0 &&
		   ((uintptr_t)datagen_next(g, 4096) % 4096) == 0,
	   "odd sizes keep 512 alignment; blocks after them 4096");
	free(copy);
	datagen_free(g);
}

int main(void)
{
	spellings();
	bonnie();
	pool(DATA_RANDOM, 0);
	pool(DATA_COMPRESS, 40);
	return tap_done();
}
