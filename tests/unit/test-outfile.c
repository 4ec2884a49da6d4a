/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * util/outfile: what outfile_unusable says of each kind of target, and
 * outfile_write's last check: a target swapped for a FIFO or a link
 * while the text was written is left alone, the temporary removed.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/outfile.h"

static char dir[] = "/tmp/fbrun-test-outfile.XXXXXX";
static char path[4096];

/* How many names beside path are fbrun's temporaries. */
static int temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (strstr(e->d_name, ".fbrun-"))
			n++;
	if (d)
		closedir(d);
	return n;
}

static void fill_text(FILE *out, const void *arg)
{
	fputs(arg, out);
}

/* A writer another process races: the target is a FIFO by the end. */
static void fill_then_fifo(FILE *out, const void *arg)
{
	(void)arg;
	fputs("new\n", out);
	unlink(path);
	mkfifo(path, 0644);
}

static void fill_then_link(FILE *out, const void *arg)
{
	(void)arg;
	fputs("new\n", out);
	unlink(path);
	if (symlink("elsewhere", path) < 0)
		perror("symlink");
}

static void say_why(const char *want, const char *what)
{
	char *why = outfile_unusable(path);

	if (want)
		is_str(why, want, "outfile_unusable: %s", what);
	else if (!ok(!why, "outfile_unusable: %s: usable", what))
		printf("#   got '%s'\n", why);
	free(why);
}

static char *slurp(const char *p)
{
	static char buf[64];
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

int main(void)
{
	struct stat st;
	char other[4200];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(other, sizeof(other), "%s/elsewhere", dir);

	say_why(NULL, "no file yet, in a directory");
	is_int(temporaries(), 0, "nothing there before");
	ok(outfile_write(path, fill_text, "one\n") == 0, "a new file written");
	is_str(slurp(path), "one\n", "... with its text");
	say_why(NULL, "a regular file");
	ok(outfile_write(path, fill_text, "two\n") == 0, "a file replaced");
	is_str(slurp(path), "two\n", "... by the new text");
	is_int(temporaries(), 0, "... no temporary left");

	ok(outfile_write(path, fill_then_fifo, NULL) < 0,
	   "a target that became a FIFO while written: refused");
	ok(stat(path, &st) == 0 && S_ISFIFO(st.st_mode), "... still a FIFO");
	is_int(temporaries(), 0, "... no temporary left");
	say_why("is a FIFO, not a regular file", "a FIFO");
	unlink(path);

	fclose(fopen(path, "w"));
	ok(outfile_write(path, fill_then_link, NULL) < 0,
	   "a target that became a link while written: refused");
	ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "... still a link");
	ok(lstat(other, &st) < 0, "... nothing made where it points");
	is_int(temporaries(), 0, "... no temporary left");
	say_why("is a symbolic link, not a regular file", "a link");
	unlink(path);

	mkdir(path, 0755);
	say_why("is a directory", "a directory");
	ok(outfile_write(path, fill_text, "x") < 0, "a directory: not replaced");
	ok(stat(path, &st) == 0 && S_ISDIR(st.st_mode), "... still a directory");
	is_int(temporaries(), 0, "... no temporary left");
	rmdir(path);

	snprintf(path, sizeof(path), "%s/none/r.json", dir);
	snprintf(other, sizeof(other),
		 "cannot be made: '%s/none': No such file or directory", dir);
	say_why(other, "in a directory that does not exist");
	rmdir(dir);
	return tap_done();
}
