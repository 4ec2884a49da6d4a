/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * The one list of the language's keywords.  The scanner's table and the
 * "did you mean" of an unknown command (grammar/parser.y) and the names
 * of the statements (ast.c) are built from it; the grammar declares each
 * token.  Sorted by word: the scanner looks words up by bsearch.
 *
 * KEYWORD(ID, word, command, stmt)
 *   ID       the token is K_ID
 *   command  1: it starts a command at the top of a script
 *   stmt     1: it starts a statement of kind AS_ID (ast.h)
 */
KEYWORD(CREATE, "create", 1, 1)
KEYWORD(CVAR, "cvar", 0, 0)
KEYWORD(DEBUG, "debug", 1, 1)
KEYWORD(DEFINE, "define", 1, 1)
KEYWORD(DOMULTISYNC, "domultisync", 1, 1)
KEYWORD(ECHO, "echo", 1, 1)
KEYWORD(ENABLE, "enable", 1, 1)
KEYWORD(EVENTGEN, "eventgen", 1, 1)
KEYWORD(FLOWOP, "flowop", 0, 1)
KEYWORD(HELP, "help", 1, 1)
KEYWORD(LIST, "list", 1, 1)
KEYWORD(LOG, "log", 1, 0)
KEYWORD(PSRUN, "psrun", 1, 1)
KEYWORD(QUIT, "quit", 1, 1)
KEYWORD(RANDVAR, "randvar", 0, 0)
KEYWORD(RUN, "run", 1, 1)
KEYWORD(SET, "set", 1, 1)
KEYWORD(SLEEP, "sleep", 1, 1)
KEYWORD(SYSTEM, "system", 1, 1)
KEYWORD(THREAD, "thread", 0, 1)
KEYWORD(USAGE, "usage", 1, 1)
KEYWORD(VARS, "vars", 1, 1)
KEYWORD(VERSION, "version", 1, 1)
