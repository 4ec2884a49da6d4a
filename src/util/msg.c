/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Runtime messages in one shape (msg.h). */
#include "util/msg.h"

#include <stdarg.h>
#include <stdio.h>

static const char *program = "fbrun";
static bool muted;

void msg_program(const char *name)
{
	program = name;
}

void msg_mute(bool mute)
{
	muted = mute;
}

/* fmt is the caller's literal, checked at its call (msg.h's attributes) */
__attribute__((format(printf, 2, 0))) static void say(const char *kind,
						       const char *fmt,
						       va_list ap)
{
	if (muted)
		return;
	/* whole, however long, and never mixed with another thread's */
	flockfile(stderr);
	fprintf(stderr, "%s: %s: ", program, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

int fb_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
	return -1;
}

void fb_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning", fmt, ap);
	va_end(ap);
}

void fb_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("note", fmt, ap);
	va_end(ap);
}

int msg_bad_option(int c, char *const argv[], int optind)
{
	if (c == ':')
		return fb_error("option '%s' needs a value", argv[optind - 1]);
	return fb_error("unknown option '%s'", argv[optind - 1]);
}
