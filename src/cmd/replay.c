/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun replay [options] TRACE: the trace replayed by a script of fbrun's
 * own (below), run as `fbrun [options] -D trace=TRACE SCRIPT` would run
 * it: every option of a run applies (-o, --format, --repeat, -t ...),
 * and its knobs are -D variables.  --pace[=SPEED], its own option, is
 * taken out of the command line and becomes the flowop's pace=.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run.h"
#include "cmd/replay.h"
#include "cmd/replayopts.h"
#include "cmd/usage.h"
#include "util/msg.h"
#include "util/optable.h"
#include "util/util.h"

/*
 * What the command runs, the replay flowop's pace= (or nothing) between
 * its two parts; its name in messages is "fbrun-replay".
 */
static const char replay_head[] =
	"# fbrun replay: a trace replayed by $clients clients\n"
	"set $trace=\"\"\n"
	"set $format=auto\n"
	"set $dir=\"$tmpdir/fbrun-replay\"\n"
	"set $clients=1\n"
	"set $passes=1\n"
	"set $calls=recorded\n"
	"set $runtime=86400\n"
	"set mode quit alldone\n"
	"define fileset name=replay,path=$dir,entries=0,dirwidth=1\n"
	"define trace name=trace,path=$trace,format=$format\n"
	"define process name=replay {\n"
	"  thread name=client,instances=$clients {\n"
	"    flowop replay name=replay,trace=trace,filesetname=replay,"
	"value=$passes,calls=$calls";
static const char replay_tail[] =
	"\n"
	"  }\n"
	"}\n"
	"run $runtime\n";

static void usage(FILE *out)
{
	optable_usage(out, &replayopts);
}

/* The speeds --pace takes: within what the script's pace= does. */
#define PACE_MIN 0.000001
#define PACE_MAX 1000000.0

/*
 * --pace[=SPEED] (arg, which starts with "--pace"): its attribute for the
 * flowop into *attr, as the script's number (digits, a point, digits).
 * -1 if it is not one of fbrun replay's, 1 if SPEED is bad (said).
 */
static int take_pace(const char *arg, char **attr)
{
	const char *v = "1";
	char *end;
	double d;

	if (arg[6] == '=')
		v = arg + 7;
	else if (arg[6])
		return -1; /* another word: fbrun's options say it */
	errno = 0;
	d = strtod(v, &end);
	if (!*v || *end || errno || !(d >= PACE_MIN && d <= PACE_MAX)) {
		fb_error("--pace expects a speed from 0.000001 to 1000000 (1: "
			 "the recorded pace, 2: twice as fast), got '%s'",
			 v);
		return 1;
	}
	free(*attr);
	*attr = xasprintf(",pace=%.6f", d);
	return 0;
}

/* Whether argv[1..n) asks for -t (--runtime) and no -D passes=. */
static bool loops(int n, char **argv)
{
	bool t = false;

	for (int i = 1; i < n; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "-t", 2) || !strncmp(a, "--runtime", 9))
			t = true;
		if (!strncmp(a, "passes=", 7) ||
		    (!strncmp(a, "-D", 2) && !strncmp(a + 2, "passes=", 7)) ||
		    !strncmp(a, "--define=passes=", 16))
			return false;
	}
	return t;
}

int replay_main(int argc, char **argv, struct job *peers)
{
	struct cli_options o = { .action = ACT_RUN, .peers = peers };
	char **args, *trace, *pace = NULL, *script;
	int n = 0, rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return FB_EXIT_OK;
		}
	if (argc < 2 || (argv[argc - 1][0] == '-' && argv[argc - 1][1])) {
		fb_error("no trace given: fbrun replay [options] TRACE");
		usage(stderr);
		return FB_EXIT_USAGE;
	}
	args = xcalloc((size_t)argc + 6, sizeof(*args));
	trace = xasprintf("trace=%s", argv[argc - 1]);
	args[n++] = "fbrun";
	for (int i = 1; i < argc - 1; i++) {
		if (!strncmp(argv[i], "--pace", 6) &&
		    (rc = take_pace(argv[i], &pace)) >= 0) {
			if (rc == 0)
				continue;
			free(pace);
			free(trace);
			free(args);
			return FB_EXIT_USAGE;
		}
		args[n++] = argv[i];
	}
	args[n++] = "-D";
	args[n++] = trace;
	if (loops(argc - 1, argv)) {
		args[n++] = "-D";
		args[n++] = "passes=0";
	}
	args[n++] = "fbrun-replay";
	script = xasprintf("%s%s%s", replay_head, pace ? pace : "",
			   replay_tail);
	rc = cmd_usage_parse(n, args, &o);
	if (rc == 0) {
		free((char *)o.script);
		o.script = xstrdup("fbrun-replay");
		o.script_text = script;
		rc = cli_run(&o);
	} else {
		rc = rc < 0 ? FB_EXIT_USAGE : FB_EXIT_OK;
	}
	cli_options_release(&o);
	free(script);
	free(pace);
	free(trace);
	free(args);
	return rc;
}
