/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* `define fileset` and `define file`: attributes, names and paths. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

static void fileset_release(struct ir_fileset *fs)
{
	free(fs->name);
	free(fs->path);
	free(fs->path_given);
}

int find_fileset(const struct compiler *c, const char *name)
{
	uintptr_t i = (uintptr_t)strmap_get(c->fileset_names, name);

	return (int)i - 1;
}

/* The obsolete filesizegamma=N: gamma-shaped sizes around size. */
static void filesizegamma(struct compiler *c, const struct ast_stmt *s,
			  struct ir_fileset *fs)
{
	const struct ast_attr *a = ast_attr_find(s->attrs, "filesizegamma");
	struct ir_value v;
	struct rv_spec spec = { 0 };
	char err[160];

	if (!a || !a->value || resolve_value(c, a->value, &v, NULL) < 0)
		return;
	if (v.kind == IRV_STR)
		free(v.s); /* not a number: ignored, as the rest */
	if (v.kind != IRV_INT || v.i <= 0 || fs->size.kind != IRV_INT)
		return;
	spec.dist = RV_GAMMA;
	spec.src = RV_SRC_URANDOM;
	spec.mean = (double)fs->size.i;
	spec.gamma = (double)v.i;
	if (rv_spec_check(&spec, err, sizeof(err)) < 0)
		return;
	fs->size.kind = IRV_RAND;
	fs->size.rv = add_randvar(c, (struct ir_randvar){
		xasprintf("%s.size", fs->name), a->loc, spec });
}

/* Where attribute `name` of s was given (its value), or s itself. */
static struct loc attr_loc(const struct ast_stmt *s, const char *name)
{
	const struct ast_attr *a = ast_attr_find(s->attrs, name);

	return a && a->value ? a->value->loc : s->loc;
}

/*
 * The root <path>/<name> is one mkdir and then opened whole: a name past
 * NAME_MAX or a root past PATH_MAX would fail only at run time, after
 * the filesets before it were made.  False if either is too long.
 */
static bool lengths_fit(struct compiler *c, const struct ast_stmt *s,
			const struct ir_fileset *fs)
{
	size_t nlen = strlen(fs->name), plen, rlen;

	if (nlen > NAME_MAX) {
		diag_error(c->d, c->src, attr_loc(s, "name"),
			   "fileset name is %zu bytes long; a file name may "
			   "have at most %d (NAME_MAX)",
			   nlen, NAME_MAX);
		return false;
	}
	if (!fs->path)
		return true;
	plen = strlen(fs->path);
	rlen = plen + (plen && fs->path[plen - 1] == '/' ? 0 : 1) + nlen;
	if (rlen < PATH_MAX)
		return true;
	diag_error(c->d, c->src, attr_loc(s, "path"),
		   "fileset root <path>/%s is %zu bytes long; a path may have "
		   "at most %d (PATH_MAX - 1)",
		   fs->name, rlen, PATH_MAX - 1);
	return false;
}

/*
 * A fileset the ranks share holds entries (and leafdirs) for each rank,
 * so the job has as many files as with a tree per rank; alone (nranks
 * 1) nothing changes.
 */
static void share_entries(struct compiler *c, const struct ast_stmt *s,
			  struct ir_fileset *fs)
{
	int64_t n = c->opts->rank_dirs ? c->opts->nranks : 1;

	if (n <= 1)
		return;
	if (fs->entries > INT64_MAX / n || fs->leafdirs > INT64_MAX / n) {
		diag_error(c->d, c->src, s->loc,
			   "fileset '%s' is shared by %" PRId64 " ranks: its "
			   "entries for each of them are too many in all",
			   fs->name, n);
		return;
	}
	fs->entries *= n;
	fs->leafdirs *= n;
}

/* The fileset's name, path and access, each error at the define. */
static void check_name_path(struct compiler *c, const struct ast_stmt *s,
			    struct ir_fileset *fs)
{
	/* a name too long is not quoted again */
	if (lengths_fit(c, s, fs) &&
	    (!fs->name[0] || !strcmp(fs->name, ".") ||
	     !strcmp(fs->name, "..") || strchr(fs->name, '/')))
		diag_error(c->d, c->src, s->loc,
			   "fileset name '%s' must be one directory name (not "
			   "'.', '..' or containing '/'): the tree is "
			   "<path>/<name>",
			   fs->name);
	if (fs->readonly && fs->writeonly)
		diag_error(c->d, c->src, s->loc,
			   "fileset '%s' cannot be both readonly and "
			   "writeonly",
			   fs->name);
	if (fs->path && fs->path[0] == '\0')
		diag_error(c->d, c->src, s->loc, "fileset '%s' has an empty path",
			   fs->name);
}

void build_fileset(struct compiler *c, const struct ast_stmt *s)
{
	struct workload *w = c->w;
	struct ir_fileset fs;
	bool is_file = strcmp(s->word, "file") == 0;
	const struct ast_attr *dd;
	int prev;

	memset(&fs, 0, sizeof(fs));
	if (apply_attrs(c, &fileset_attrs, s->attrs, &fs, is_file, false,
			is_file ? "define file" : "define fileset",
			s->loc) == (uint64_t)-1) {
		if (fs.name) {
			c->bad_filesets = grow_array(c->bad_filesets,
						     &c->cap_bad_filesets,
						     c->nbad_filesets + 1,
						     sizeof(char *));
			c->bad_filesets[c->nbad_filesets++] = fs.name;
			strmap_add(c->bad_fileset_names, fs.name, fs.name);
			fs.name = NULL;
		}
		fileset_release(&fs);
		return;
	}
	fs.loc = s->loc;
	fs.is_file = is_file;
	if (fs.shared && !is_file)
		share_entries(c, s, &fs);
	else if (fs.rankshift && ast_attr_find(s->attrs, "rankshift"))
		diag_warning(c->d, c->src,
			     ast_attr_find(s->attrs, "rankshift")->loc,
			     "'rankshift' has no effect without 'shared' (a "
			     "define fileset the ranks share)");
	fs.size_set = ast_attr_find(s->attrs, "size") ||
		      ast_attr_find(s->attrs, "filesize");
	if (is_file) {
		fs.entries = 1;
		fs.dirgamma = 0;
		fs.dirwidth = (struct ir_value){ .kind = IRV_INT, .i = 1 };
	} else if (fs.dirwidth.kind == IRV_NONE) {
		diag_warning(c->d, c->src, s->loc,
			     "fileset '%s' has no dirwidth; all its files go "
			     "in one directory",
			     fs.name);
		fs.dirwidth = (struct ir_value){
			.kind = IRV_INT, .i = fs.entries > 0 ? fs.entries : 1
		};
	}
	dd = ast_attr_find(s->attrs, "dirdepth");
	if (dd && dd->value && fs.dirdepth.kind == IRV_NONE &&
	    resolve_value(c, dd->value, &fs.dirdepth, NULL) == 0 &&
	    fs.dirdepth.kind == IRV_STR) {
		free(fs.dirdepth.s); /* not a number: no depth asked for */
		fs.dirdepth = (struct ir_value){ .kind = IRV_NONE };
	}
	filesizegamma(c, s, &fs);
	if (c->opts->rank_dirs && !fs.shared && fs.path) {
		char *mine = xasprintf("%s/rank-%" PRId64, fs.path,
				       c->opts->rank);

		fs.path_given = fs.path;
		fs.path = mine;
	}
	if (fs.verify && fs.data.kind != DATA_DEFAULT) {
		const struct ast_attr *da = ast_attr_find(s->attrs, "data");

		if (!da)
			da = ast_attr_find(s->attrs, "compress");
		diag_warning(c->d, c->src, da ? da->loc : s->loc,
			     "'%s' has no effect on fileset '%s' with verify: "
			     "its files get verify's blocks",
			     da ? da->name : "data", fs.name);
	}
	check_name_path(c, s, &fs);
	prev = find_fileset(c, fs.name);
	if (prev >= 0) {
		diag_error(c->d, c->src, s->loc,
			   "fileset '%s' is already defined", fs.name);
		diag_note(c->d, c->src, w->filesets[prev].loc,
			  "first defined here");
		fileset_release(&fs);
		return;
	}
	w->filesets = grow_array(w->filesets, &c->cap_filesets,
				 w->nfilesets + 1, sizeof(*w->filesets));
	w->filesets[w->nfilesets++] = fs;
	/* the name is the workload's now: it lives as long as the map */
	strmap_add(c->fileset_names, w->filesets[w->nfilesets - 1].name,
		   (void *)(uintptr_t)w->nfilesets);
}
