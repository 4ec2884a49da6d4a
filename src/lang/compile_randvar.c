/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Random variables: randvar(...) and cvar(...) values (and the old
 * `define randvar`) checked against their tables and built into the
 * workload's distributions; the compiler's statements call it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

int compile_add_randvar(struct compiler *c, struct ir_randvar rv)
{
	struct workload *w = c->w;

	w->randvars = grow_array(w->randvars, &c->cap_randvars,
				 w->nrandvars + 1, sizeof(*w->randvars));
	w->randvars[w->nrandvars] = rv;
	return (int)w->nrandvars++;
}

/* randtable={{pct, min, max}, ...} -> bins; -1 after reporting. */
static int build_table(struct compiler *c, const struct ast_value *list,
		       struct rv_spec *spec)
{
	size_t n = 0, cap = 0;

	if (!list || list->kind != AV_LIST) {
		diag_error(c->d, c->src, list ? list->loc : LOC_NONE,
			   "randtable expects {{percent, min, max}, ...}");
		return -1;
	}
	for (const struct ast_value *row = list->items; row; row = row->next) {
		double cell[3];
		int k = 0;

		if (row->kind != AV_LIST) {
			diag_error(c->d, c->src, row->loc,
				   "randtable row must be {percent, min, max}");
			return -1;
		}
		for (const struct ast_value *it = row->items; it; it = it->next) {
			struct ir_value v;
			struct origin org;

			if (k == 3) {
				diag_error(c->d, c->src, it->loc,
					   "randtable row has more than three "
					   "values: {percent, min, max}");
				return -1;
			}
			if (compile_resolve_value(c, it, &v, &org) < 0)
				return -1;
			if (v.kind != IRV_INT) {
				diag_error(c->d, c->src, it->loc,
					   "randtable values must be "
					   "integers");
				compile_note_origin(c, &org);
				if (v.kind == IRV_STR)
					free(v.s);
				return -1;
			}
			cell[k++] = (double)v.i;
		}
		if (k != 3) {
			diag_error(c->d, c->src, row->loc,
				   "randtable row has %d value%s; expected "
				   "{percent, min, max}",
				   k, k == 1 ? "" : "s");
			return -1;
		}
		spec->table = grow_array(spec->table, &cap, n + 1,
					 sizeof(*spec->table));
		spec->table[n++] = (struct rv_bin){ cell[0], cell[1], cell[2] };
		spec->ntable = n;
	}
	return 0;
}

static const struct ast_value *attr_value(const struct ast_attr *attrs,
					  const char *name)
{
	const struct ast_attr *a = ast_attr_find((struct ast_attr *)attrs,
						 name);

	return a ? a->value : NULL;
}

/* Where key k of a cvar parameters string is, for the caret. */
static struct loc param_loc(const struct ast_value *v, size_t off)
{
	if (v && v->kind == AV_STRING && v->parts && !v->parts->next &&
	    !v->parts->is_var)
		return (struct loc){ v->loc.start + 1 + (int)off,
				     v->loc.start + 2 + (int)off };
	return v ? v->loc : LOC_NONE;
}

/* "cvar-gamma, cvar-normal, ...": rand.h's list, for a message. */
static void cvar_type_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int d = 0; d < RV_NDIST && n < len; d++)
		if (rv_dist_is_cvar((enum rv_dist)d))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "",
					      rv_dist_name((enum rv_dist)d));
}

int compile_build_randvar(struct compiler *c, const char *name,
			  const struct ast_attr *attrs, bool cvar, struct loc loc)
{
	struct rv_spec spec = { 0 };
	char err[200];
	uint64_t given;
	int d;

	if (cvar) {
		struct cvar_form f;
		size_t off = 0;

		given = compile_apply_attrs(c, &attr_cvar, attrs, &f, false, false,
					    "cvar(...)", loc);
		if (given == (uint64_t)-1) {
			free(f.type);
			free(f.parameters);
			return -1;
		}
		d = rv_dist_lookup(f.type, true);
		if (d < 0 || !rv_dist_is_cvar((enum rv_dist)d)) {
			char names[256];

			cvar_type_names(names, sizeof(names));
			diag_error(c->d, c->src, attr_value(attrs, "type")->loc,
				   "unknown cvar type '%s'; expected one of %s",
				   f.type, names);
			free(f.type);
			free(f.parameters);
			return -1;
		}
		spec.dist = (enum rv_dist)d;
		spec.src = RV_SRC_URANDOM;
		spec.min = (double)f.min;
		spec.max = (double)f.max;
		spec.has_max = given & ((uint64_t)1 << CVA_MAX);
		spec.round = (double)f.round;
		free(f.type);
		if (rv_parse_params(&spec, f.parameters ? f.parameters : "",
				    err, sizeof(err), &off) < 0) {
			diag_error(c->d, c->src,
				   param_loc(attr_value(attrs, "parameters"),
					     off),
				   "%s", err);
			free(f.parameters);
			return -1;
		}
		free(f.parameters);
	} else {
		struct rv_form f;
		static const enum rv_dist types[] = { RV_UNIFORM, RV_GAMMA,
						      RV_TABULAR };

		given = compile_apply_attrs(c, &attr_randvar, attrs, &f, false, false,
					    "randvar(...)", loc);
		free(f.name);
		if (given == (uint64_t)-1)
			return -1;
		spec.dist = types[f.type];
		spec.src = f.randsrc == 0 ? RV_SRC_RAND48 : RV_SRC_URANDOM;
		spec.seed = (uint64_t)f.seed;
		spec.has_seed = given & ((uint64_t)1 << RVA_SEED);
		spec.gamma = (double)f.gamma;
		spec.mean = (double)f.mean;
		spec.min = (double)f.min;
		spec.round = (double)f.round;
		if (spec.dist == RV_TABULAR) {
			const struct ast_value *tbl =
				attr_value(attrs, "randtable");

			if (!tbl) {
				diag_error(c->d, c->src, loc,
					   "a tabular randvar needs "
					   "randtable={{percent, min, max}, "
					   "...}");
				return -1;
			}
			if (build_table(c, tbl, &spec) < 0) {
				rv_spec_release(&spec);
				return -1;
			}
		} else if (attr_value(attrs, "randtable")) {
			diag_error(c->d, c->src,
				   attr_value(attrs, "randtable")->loc,
				   "randtable is only used with type=tabular");
			return -1;
		}
	}
	if (rv_spec_check(&spec, err, sizeof(err)) < 0) {
		diag_error(c->d, c->src, loc, "%s", err);
		rv_spec_release(&spec);
		return -1;
	}
	return compile_add_randvar(c, (struct ir_randvar){ xstrdup(name), loc, spec });
}
