/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * fbrun bonnie's options, bonnie++'s, one row each in its usage's order,
 * in the form of cmd/compare_option_list.h; OPTABLE_BREAK starts a new line
 * of the usage.  The text is the man page's (BONNIE OPTIONS): the usage
 * is bonnie++'s synopsis.  The parser (cmd/bonnie_options.c), the usage, the
 * man page and the bash completion's words come from these rows.
 */
OPTION(DIR, NULL, 'd', required_argument, "dir", 0,
	"Directory to test in (default: the current one).")
OPTION(SIZE, NULL, 's', required_argument,
	"size(MiB)[:chunk[:seeks[:seekers]]]", 0,
	"File size in MiB for the I/O tests (0 skips them), the I/O block\n"
	"size in bytes, the number of random seeks and of seeker threads.")
OPTION(FILES, NULL, 'n', required_argument,
	"number(x1024)[:max[:min[:dirs[:chunk]]]]", OPTABLE_BREAK,
	"Files for the file tests in units of 1024 (0 skips them), their\n"
	"largest and smallest size in bytes, the subdirectories and the\n"
	"write chunk.")
OPTION(MACHINE, NULL, 'm', required_argument, "machine", OPTABLE_BREAK,
	"Machine name in the output (default: the host name).")
OPTION(RAM, NULL, 'r', required_argument, "ram(MiB)", 0,
	"RAM in MiB (default: detected); 0 turns the size checks off.")
OPTION(ITERATIONS, NULL, 'x', required_argument, "iterations", 0,
	"Run the tests this many times: a CSV line each, no table.")
OPTION(QUIET, NULL, 'q', no_argument, NULL, 0,
	"Quiet: no progress, the table on standard error, only the CSV on\n"
	"standard output.")
OPTION(BYTES, NULL, 'f', optional_argument, "size", OPTABLE_BREAK,
	"Skip the per-character tests, or with size do them over that\n"
	"many MiB.")
OPTION(FSYNC, NULL, 'b', no_argument, NULL, 0,
	"Fsync each created file and the directories of files created and\n"
	"removed.")
OPTION(DIRECT, NULL, 'D', no_argument, NULL, 0,
	"Open the files the write tests create with O_DIRECT.")
OPTION(SEED, NULL, 'z', required_argument, "seed", 0,
	"Seed of the random numbers, as fbrun's --seed.")
OPTION(CONCURRENCY, NULL, 'c', required_argument, "concurrency", 0,
	"Concurrency, 1 to 200, recorded in the output only.")
OPTION(USER, NULL, 'u', required_argument, "user[:group]", OPTABLE_BREAK,
	"As root, switch to this user (and group) first.")
OPTION(GROUP, NULL, 'g', required_argument, "group", 0,
	"As root, switch to this group first.")
OPTION(FORMAT, "format", 0, required_argument, "2.00|1.96", OPTABLE_BREAK,
	"Text table: bonnie++ 2.00a's (the default: k, m, g units) or 1.96's (K/sec).")
OPTION(CSV, "csv-format", 0, required_argument, "1.96|1.98", 0,
	"CSV layout: 48 fields (1.96) or 50 (1.98, the default).")
OPTION(RANDOM, "random-data", 0, no_argument, NULL, 0,
	"Write incompressible data instead of bonnie++'s blocks.")
OPTION(DRY_RUN, "dry-run", 0, no_argument, NULL, OPTABLE_BREAK,
	"Print each phase as the fbrun command that runs it, and exit.")
/* bonnie++'s semaphores and random-number files: refused by name */
OPTION(SEMAPHORE, NULL, 'p', required_argument, "count", OPTABLE_HIDDEN, "")
OPTION(SYNC, NULL, 'y', required_argument, "mode", OPTABLE_HIDDEN, "")
OPTION(RANDFILE, NULL, 'Z', required_argument, "file", OPTABLE_HIDDEN, "")
OPTION(HELP, "help", 'h', no_argument, NULL, OPTABLE_HIDDEN, "")
