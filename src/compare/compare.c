/*
 * fbrun compare: its options, and the steps in order: each file read into
 * the model (read), the runs matched (match), the text table (table) and
 * the page (html).  Ratios are to the first run.
 */
#include "compare/compare.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html.h"
#include "compare/match.h"
#include "compare/model.h"
#include "compare/read.h"
#include "compare/table.h"
#include "util/msg.h"
#include "util/util.h"

struct cmp_opts {
	const char **labels;
	size_t nlabels, cap;
	const char *html;
	bool common;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fbrun compare [options] A.json B.json [C.json ...]\n"
		"\n"
		"  -l, --label NAME   name the next run's column (repeat, in "
		"file order;\n"
		"                     default: the file name without .json)\n"
		"      --html FILE    also write an HTML page with charts to "
		"FILE\n"
		"      --common       compare only the flowops every run has\n"
		"  -h, --help         show this help\n"
		"\n"
		"Ratios are to the first run.  Exit status: 0 ok, 2 usage or "
		"bad input.\n");
}

static char *default_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	return xstrndup(base, n);
}

/* Returns -1 to exit 2, 1 to exit 0 (--help), 0 to go on. */
static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	enum { OPT_HTML = 256, OPT_COMMON };
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "common", no_argument, NULL, OPT_COMMON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":l:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			if (!optarg[0])
				return fb_error("--label needs a non-empty "
						"name");
			o->labels = grow_array(o->labels, &o->cap,
					       o->nlabels + 1,
					       sizeof(*o->labels));
			o->labels[o->nlabels++] = optarg;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_COMMON:
			o->common = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			return msg_bad_option(ch, argv, optind);
		default:
			msg_bad_option(ch, argv, optind);
			usage(stderr);
			return -1;
		}
	}
	if (argc - optind < 2) {
		fb_error("compare needs at least two results files");
		usage(stderr);
		return -1;
	}
	if (o->nlabels > (size_t)(argc - optind))
		return fb_error("%zu labels for %d files", o->nlabels,
				argc - optind);
	return 0;
}

/* The table, built in memory so that it can be cleaned on the way out. */
static int write_table(const struct cmp *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return fb_error("cannot build the table: %s", strerror(errno));
	cmp_table(mem, c);
	if (fclose(mem) != 0) {
		free(text);
		return fb_error("cannot build the table: %s", strerror(errno));
	}
	cmp_put_clean(stdout, text, len);
	free(text);
	if (fflush(stdout) != 0 || ferror(stdout))
		return fb_error("cannot write the table");
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct cmp_opts o = { 0 };
	struct cmp c = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc) {
		free(o.labels);
		return rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	}
	rc = FB_EXIT_USAGE;
	c.nruns = (size_t)(argc - optind);
	c.runs = xcalloc(c.nruns, sizeof(*c.runs));
	for (size_t i = 0; i < c.nruns; i++) {
		c.runs[i].path = argv[optind + (int)i];
		c.runs[i].label = i < o.nlabels ? xstrdup(o.labels[i]) :
						  default_label(c.runs[i].path);
	}
	for (size_t i = 0; i < c.nruns; i++)
		if (cmp_read_file(&c.runs[i]) < 0)
			goto out;
	if (cmp_match(&c, o.common) < 0 || write_table(&c) < 0)
		goto out;
	if (o.html && html_write(o.html, &c) < 0)
		goto out;
	rc = FB_EXIT_OK;
out:
	for (size_t i = 0; i < c.nruns; i++) {
		free(c.runs[i].label);
		cmp_run_clear(&c.runs[i]);
	}
	cmp_rows_free(&c);
	free(c.runs);
	free(o.labels);
	return rc;
}
