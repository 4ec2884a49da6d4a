/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* Variable resolution, string expansion and typing, through the compiler. */
#include <stdio.h>
#include <stdlib.h>

#include "lang/compile.h"
#include "lang/parse.h"
#include "tap.h"
#include "util/util.h"

struct result {
	struct source *src;
	struct ast_stmt *prog;
	struct workload *w;
	int errors;
};

static struct result compile_text(const char *text,
				  const struct cli_define *defs, size_t n)
{
	struct result r = { 0 };
	struct compile_opts o = { .defines = defs, .ndefines = n,
				  .tmpdir = "/scratch" };
	FILE *devnull = fopen("/dev/null", "w");
	struct diag *d = diag_new(devnull, 20);

	r.src = source_from_string("t.f", text, strlen(text));
	o.cli_src = r.src;
	if (parse_script(r.src, d, &r.prog) == 0)
		r.w = compile_workload(r.prog, r.src, &o, d);
	r.errors = diag_error_count(d);
	diag_free(d);
	fclose(devnull);
	return r;
}

static void release(struct result *r)
{
	workload_free(r->w);
	ast_stmt_free(r->prog);
	source_free(r->src);
}

#define PROC                                                                   \
	"define process name=p { thread name=t { flowop statfile "            \
	"name=s,filesetname=a } }\n"

static const struct ir_var *var(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nvars; i++)
		if (strcmp(w->vars[i].name, name) == 0)
			return &w->vars[i];
	return NULL;
}

int main(void)
{
	struct result r;

	r = compile_text("set $n=5\n"
			 "define fileset name=a,path=/x,entries=$n,dirwidth=2\n"
			 "set $n=7\n" PROC "run 1\n",
			 NULL, 0);
	ok(r.w && r.w->filesets[0].entries == 7,
	   "a set after the define still applies (late binding)");
	release(&r);

	r = compile_text("set $n=5\n"
			 "define fileset name=a,path=/x,entries=$n,dirwidth=2\n"
			 PROC "run 1\nset $n=9\n",
			 NULL, 0);
	ok(r.w && r.w->filesets[0].entries == 5,
	   "a set after run is never executed");
	release(&r);

	{
		struct cli_define defs[] = { { "n", "16k" }, { "flag", "true" },
					     { "where", "/data" } };

		r = compile_text("set $n=5\nset $where=/tmp\n"
				 "define fileset name=a,path=$where,entries=$n,"
				 "dirwidth=2,reuse=$flag\n" PROC "run 1\n",
				 defs, 3);
		ok(r.w != NULL, "-D values compile");
		if (r.w) {
			is_int(r.w->filesets[0].entries, 16384,
			       "-D n=16k overrides the script's set");
			ok(r.w->filesets[0].reuse, "-D flag=true is a boolean");
			is_str(r.w->filesets[0].path, "/data",
			       "-D where=/data is a string");
			ok(var(r.w, "n") && var(r.w, "n")->from_cli,
			   "the variable is marked as set by -D");
		}
		release(&r);
	}

	r = compile_text("set $d=\"$base/x\"\nset $base=/m\n"
			 "define fileset name=a,path=$d,entries=1,dirwidth=2\n"
			 PROC "run 1\n",
			 NULL, 0);
	ok(r.w && strcmp(r.w->filesets[0].path, "/m/x") == 0,
	   "a quoted string expands its variables where it is used");
	release(&r);

	r = compile_text("echo \"a\\tb\\$c ${tmpdir}\"\n", NULL, 0);
	ok(r.w && r.w->nstmts == 1 &&
		   strcmp(r.w->stmts[0].text, "a\tb$c /scratch") == 0,
	   "escapes and the predefined $tmpdir in a string");
	release(&r);

	r = compile_text("set $a=\"$b\"\nset $b=\"$a\"\necho \"$a\"\n", NULL,
			 0);
	ok(!r.w && r.errors == 1, "a cycle through strings is one error");
	release(&r);

	r = compile_text("echo \"$nope\"\n", NULL, 0);
	ok(!r.w && r.errors == 1, "an unset variable is an error");
	release(&r);

	r = compile_text(
		"set $rv=randvar(type=gamma,mean=8k,gamma=1500)\n"
		"define fileset name=a,path=/x,entries=1,dirwidth=2\n"
		"define process name=p { thread name=t { flowop read "
		"name=r,filesetname=a,iosize=$rv } }\nrun 1\n",
		NULL, 0);
	ok(r.w && r.w->flowops[0]->iosize.kind == IRV_RAND &&
		   r.w->randvars[r.w->flowops[0]->iosize.rv].spec.dist ==
			   RV_GAMMA,
	   "a random variable stays a reference, sampled at each use");
	release(&r);

	r = compile_text(
		"define fileset name=a,path=/x,entries=1,dirwidth=2\n"
		"define flowop name=c, $sz=4k { flowop read name=r,"
		"filesetname=a,iosize=$sz }\n"
		"define process name=p { thread name=t { flowop c name=c1 "
		"flowop c name=c2,$sz=8k } }\nrun 1\n",
		NULL, 0);
	ok(r.w != NULL, "composite flowops compile");
	if (r.w) {
		const struct ir_thread *t = &r.w->threads[0];

		is_int(t->flowops[0]->children[0]->iosize.i, 4096,
		       "a local takes the define's default");
		is_int(t->flowops[1]->children[0]->iosize.i, 8192,
		       "an instance's local overrides it");
		is_str(t->flowops[1]->children[0]->name, "c2.r",
		       "children are named parent.child");
	}
	release(&r);

	r = compile_text("define fileset name=run,path=/x,entries=1,dirwidth=2,"
			 "prealloc,reuse\n"
			 "define process name=p { thread name=t { flowop "
			 "statfile name=s,filesetname=run } }\npsrun -5\n",
			 NULL, 0);
	ok(r.w != NULL, "a command word is a valid name after '='");
	if (r.w) {
		is_int(r.w->filesets[0].prealloc, 100, "bare prealloc is 100");
		ok(r.w->filesets[0].reuse, "a bare attribute is true");
		is_int(r.w->stmts[0].n, 60, "psrun runs 60 s by default");
		is_int(r.w->stmts[0].n2, -5, "psrun keeps a negative period");
	}
	release(&r);

	r = compile_text("define fileset name=a,path=/x,entries=1,dirwidth=2\n"
			 PROC "run\n",
			 NULL, 0);
	ok(r.w && r.w->stmts[0].n == 60 && r.w->has_run,
	   "run without a time runs 60 s");
	release(&r);

	r = compile_text("define fileset name=a,path=/x,entries=1,dirwidth=2\n"
			 PROC,
			 NULL, 0);
	ok(r.w && !r.w->has_run && r.w->nprocesses == 1,
	   "a script without run still compiles its defines");
	release(&r);
	return tap_done();
}
