/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Attributes, the typed half of the compiler: checked against their
 * tables and stored in the IR (compile_int.h); the values they take are
 * resolved in compile_value.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile_int.h"
#include "util/util.h"

static const char *kind_name(enum ir_vkind k)
{
	switch (k) {
	case IRV_INT: return "an integer";
	case IRV_DOUBLE: return "a decimal number";
	case IRV_BOOL: return "a boolean";
	case IRV_STR: return "a word";
	case IRV_RAND: return "a random variable";
	case IRV_NONE: break;
	}
	return "nothing";
}

static int type_error(struct compiler *c, const struct attr_spec *s,
		      const char *what, const struct ir_value *v,
		      const struct origin *org, const char *want)
{
	if (v->kind == IRV_STR)
		diag_error(c->d, c->src, v->loc,
			   "%s attribute '%s' expects %s, got '%s'", what,
			   s->name, want, v->s);
	else
		diag_error(c->d, c->src, v->loc,
			   "%s attribute '%s' expects %s, got %s", what,
			   s->name, want, kind_name(v->kind));
	compile_note_origin(c, org);
	return -1;
}

static int range_check(struct compiler *c, const struct attr_spec *s,
		       const char *what, const struct ir_value *v,
		       const struct origin *org)
{
	if (v->i >= s->min && v->i <= s->max)
		return 0;
	if (s->max == INT64_MAX)
		diag_error(c->d, c->src, v->loc,
			   "%s attribute '%s' must be at least %" PRId64
			   ", got %" PRId64,
			   what, s->name, s->min, v->i);
	else
		diag_error(c->d, c->src, v->loc,
			   "%s attribute '%s' must be between %" PRId64
			   " and %" PRId64 ", got %" PRId64,
			   what, s->name, s->min, s->max, v->i);
	compile_note_origin(c, org);
	return -1;
}

/* data=WORD or compress=N into a struct datapat; both may not be given. */
static int store_data(struct compiler *c, const struct attr_spec *s,
		      struct datapat *field, const struct ir_value *v,
		      const struct origin *org, const char *what)
{
	struct datapat p;
	char err[160];
	const char *hint;

	if (field->kind != DATA_DEFAULT) {
		diag_error(c->d, c->src, v->loc,
			   "%s attributes 'data' and 'compress' both choose "
			   "the data written; give one of them",
			   what);
		return -1;
	}
	if (!s->words) {
		if (v->kind != IRV_INT)
			return type_error(c, s, what, v, org,
					  v->kind == IRV_RAND ?
						  "a constant integer" :
						  "an integer");
		if (range_check(c, s, what, v, org) < 0)
			return -1;
		*field = (struct datapat){ DATA_COMPRESS, (int)v->i };
		return 0;
	}
	if (v->kind != IRV_STR)
		return type_error(c, s, what, v, org,
				  "zeros, bonnie or random");
	/* a quoted "compress=N" (from a variable, say) is taken too */
	if (datapat_parse(v->s, &p, err, sizeof(err)) == 0) {
		*field = p;
		return 0;
	}
	if (strncmp(v->s, "compress", 8) == 0 && !strchr(v->s, '='))
		diag_error(c->d, c->src, v->loc,
			   "%s attribute 'data' expects zeros, bonnie or "
			   "random, got '%s'; for compressible data write "
			   "compress=N",
			   what, v->s);
	else if (strncmp(v->s, "compress=", 9) == 0)
		diag_error(c->d, c->src, v->loc, "%s attribute 'data': %s",
			   what, err);
	else if ((hint = did_you_mean(v->s, datapat_words, 3,
				      sizeof(datapat_words[0]))))
		diag_error(c->d, c->src, v->loc,
			   "%s attribute 'data' expects zeros, bonnie or "
			   "random, got '%s'; did you mean '%s'?",
			   what, v->s, hint);
	else
		diag_error(c->d, c->src, v->loc,
			   "%s attribute 'data' expects zeros, bonnie or "
			   "random, got '%s'",
			   what, v->s);
	compile_note_origin(c, org);
	return -1;
}

/* d is over 0 and at most s->max (in unit): 0, else -1 after saying so. */
static int over_zero(struct compiler *c, const struct attr_spec *s,
		     const struct ir_value *v, const struct origin *org,
		     const char *what, double d, const char *unit)
{
	if (d > 0 && d <= (double)s->max)
		return 0;
	diag_error(c->d, c->src, v->loc,
		   "%s attribute '%s' must be greater than 0 and at most "
		   "%" PRId64 "%s, got %.15g",
		   what, s->name, s->max, unit, d);
	compile_note_origin(c, org);
	return -1;
}

/* A number greater than 0 up to s->max (a bare attribute: 1). */
static int store_real(struct compiler *c, const struct attr_spec *s,
		      double *field, const struct ir_value *v,
		      const struct origin *org, const char *what)
{
	double d;

	if (v->kind == IRV_INT || v->kind == IRV_BOOL)
		d = (double)v->i;
	else if (v->kind == IRV_DOUBLE)
		d = v->d;
	else
		return type_error(c, s, what, v, org,
				  v->kind == IRV_RAND ? "a constant number" :
							"a number");
	if (over_zero(c, s, v, org, what, d, "") < 0)
		return -1;
	*field = d;
	return 0;
}

/*
 * rate=: arrivals per second, greater than 0 up to s->max, as a number
 * or "N/job" (a word: the lexer takes 100/job whole).
 */
static int store_rate(struct compiler *c, const struct attr_spec *s,
		      struct ir_rate *field, const struct ir_value *v,
		      const struct origin *org, const char *what)
{
	double d = 0;
	bool job = false;
	char *end;

	if (v->kind == IRV_INT)
		d = (double)v->i;
	else if (v->kind == IRV_DOUBLE)
		d = v->d;
	else if (v->kind == IRV_STR && v->s[0] >= '0' && v->s[0] <= '9' &&
		 (d = strtod(v->s, &end), !*end || strcmp(end, "/job") == 0))
		job = *end != '\0';
	else
		return type_error(c, s, what, v, org,
				  v->kind == IRV_RAND ?
					  "a constant number (N or N/job)" :
					  "arrivals per second (N or N/job)");
	if (over_zero(c, s, v, org, what, d, " per second") < 0)
		return -1;
	if (d < MIN_RATE) {
		diag_error(c->d, c->src, v->loc,
			   "%s attribute '%s' must be at least %.6f per second "
			   "(one arrival in 11 days), got %.15g",
			   what, s->name, MIN_RATE, d);
		compile_note_origin(c, org);
		return -1;
	}
	field->per_sec = d;
	field->per_job = job;
	field->loc = v->loc;
	return 0;
}

/* Store a resolved value v (owned; consumed) into obj as spec s says. */
static int store(struct compiler *c, const struct attr_spec *s, void *obj,
		 struct ir_value *v, const struct origin *org, const char *what)
{
	char *field = (char *)obj + s->off;
	int rc = 0;

	switch (s->type) {
	case AT_INT:
	case AT_PCT:
		if (v->kind == IRV_BOOL && s->type == AT_PCT)
			v->i = v->i ? 100 : 0;
		else if (v->kind != IRV_INT && v->kind != IRV_BOOL)
			rc = type_error(c, s, what, v, org,
					v->kind == IRV_RAND ?
						"a constant integer" :
						"an integer");
		if (!rc)
			rc = range_check(c, s, what, v, org);
		if (!rc)
			*(int64_t *)field = v->i;
		break;
	case AT_BOOL:
		if (v->kind == IRV_BOOL || v->kind == IRV_INT)
			*(bool *)field = v->i != 0;
		else
			rc = type_error(c, s, what, v, org, "true or false");
		break;
	case AT_STR:
		if (v->kind == IRV_INT) {
			*(char **)field = xasprintf("%" PRId64, v->i);
		} else if (v->kind == IRV_STR) {
			*(char **)field = v->s;
			v->s = NULL;
		} else if (v->kind == IRV_BOOL) {
			*(char **)field = xstrdup(v->i ? "true" : "false");
		} else {
			rc = type_error(c, s, what, v, org, "a word");
		}
		break;
	case AT_VALUE:
		if (v->kind == IRV_BOOL)
			v->kind = IRV_INT;
		if (v->kind == IRV_INT)
			rc = range_check(c, s, what, v, org);
		else if (v->kind == IRV_RAND && !(s->flags & A_RANDOM))
			rc = type_error(c, s, what, v, org,
					"a constant integer");
		else if (v->kind == IRV_STR && !(s->flags & A_STRING))
			rc = type_error(c, s, what, v, org, "an integer");
		else if (v->kind == IRV_DOUBLE)
			rc = type_error(c, s, what, v, org, "an integer");
		if (!rc) {
			*(struct ir_value *)field = *v;
			v->s = NULL;
		}
		break;
	case AT_ENUM:
		rc = -1;
		if (v->kind == IRV_STR)
			for (int i = 0; s->words[i]; i++)
				if (strcmp(s->words[i], v->s) == 0) {
					*(int64_t *)field = i;
					rc = 0;
				}
		if (rc) {
			char list[128] = "";

			for (int i = 0; s->words[i]; i++) {
				if (i)
					strcat(list, s->words[i + 1] ? ", " :
								       " or ");
				strcat(list, s->words[i]);
			}
			type_error(c, s, what, v, org, list);
		}
		break;
	case AT_REF:
		if (v->kind != IRV_STR)
			return type_error(c, s, what, v, org, "a name");
		((struct ir_ref *)field)->name = v->s;
		((struct ir_ref *)field)->loc = v->loc;
		v->s = NULL;
		break;
	case AT_DATA:
		rc = store_data(c, s, (struct datapat *)field, v, org, what);
		break;
	case AT_REAL:
		rc = store_real(c, s, (double *)field, v, org, what);
		break;
	case AT_RATE:
		rc = store_rate(c, s, (struct ir_rate *)field, v, org, what);
		break;
	case AT_LIST:
	case AT_OBSOLETE:
		break;
	}
	if (v->kind == IRV_STR)
		free(v->s);
	return rc;
}

static void set_default(const struct attr_spec *s, void *obj)
{
	char *field = (char *)obj + s->off;

	switch (s->type) {
	case AT_INT:
	case AT_PCT:
	case AT_ENUM:
		*(int64_t *)field = s->def;
		break;
	case AT_BOOL:
		*(bool *)field = false;
		break;
	case AT_STR:
		*(char **)field = NULL;
		break;
	case AT_VALUE:
		memset(field, 0, sizeof(struct ir_value));
		((struct ir_value *)field)->kind = s->def ? IRV_INT : IRV_NONE;
		((struct ir_value *)field)->i = s->def;
		((struct ir_value *)field)->loc = LOC_NONE;
		break;
	case AT_REF:
		((struct ir_ref *)field)->name = NULL;
		((struct ir_ref *)field)->loc = LOC_NONE;
		((struct ir_ref *)field)->index = -1;
		break;
	case AT_DATA:
		memset(field, 0, sizeof(struct datapat));
		break;
	case AT_REAL:
		*(double *)field = 0;
		break;
	case AT_RATE: /* arrivals and backlog have rows of their own */
		((struct ir_rate *)field)->per_sec = 0;
		((struct ir_rate *)field)->per_job = false;
		((struct ir_rate *)field)->loc = LOC_NONE;
		break;
	case AT_LIST:
	case AT_OBSOLETE:
		break;
	}
}

uint64_t compile_apply_attrs(struct compiler *c, const struct attr_table *t,
			     const struct ast_attr *attrs, void *obj, bool only_file,
			     bool allow_locals, const char *what, struct loc where)
{
	const struct ast_attr *seen[64] = { 0 };
	uint64_t given = 0;
	bool failed = false;

	for (size_t i = 0; i < t->n; i++)
		set_default(&t->specs[i], obj);
	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct attr_spec *s;
		struct ir_value v;
		struct origin org;
		size_t idx;

		if (a->local) {
			if (!allow_locals) {
				diag_error(c->d, c->src, a->loc,
					   "local variable '$%s' is only "
					   "allowed in flowops",
					   a->name);
				failed = true;
			}
			continue;
		}
		s = attr_lookup(t, a->name);
		if (s && only_file && !(s->flags & A_FILE)) {
			diag_error(c->d, c->src, a->loc,
				   "attribute '%s' is not valid for 'define "
				   "file'; use 'define fileset'",
				   a->name);
			failed = true;
			continue;
		}
		if (!s) {
			const char *hint = attr_suggest(t, a->name);

			if (hint)
				diag_error(c->d, c->src, a->loc,
					   "unknown %s attribute '%s'; did you "
					   "mean '%s'?",
					   t->entity, a->name, hint);
			else
				diag_error(c->d, c->src, a->loc,
					   "unknown %s attribute '%s'",
					   t->entity, a->name);
			failed = true;
			continue;
		}
		idx = (size_t)(s - t->specs);
		if (seen[idx]) {
			diag_error(c->d, c->src, a->loc,
				   "attribute '%s' is given twice", s->name);
			diag_note(c->d, c->src, seen[idx]->loc,
				  "first given here");
			failed = true;
			continue;
		}
		seen[idx] = a;
		given |= (uint64_t)1 << idx;
		if (s->type == AT_OBSOLETE) {
			diag_warning(c->d, c->src, a->loc,
				     "attribute '%s' is obsolete: %s", a->name,
				     s->help);
			continue;
		}
		if (s->type == AT_LIST)
			continue; /* the caller reads the list itself */
		if (!a->value) {
			if (s->type == AT_BOOL || s->type == AT_PCT ||
			    s->type == AT_REAL) {
				v = (struct ir_value){ .kind = IRV_BOOL, .i = 1,
						       .loc = a->loc };
				org.via = NULL;
			} else {
				diag_error(c->d, c->src, a->loc,
					   "attribute '%s' needs a value: "
					   "%s=...",
					   s->name, s->name);
				failed = true;
				continue;
			}
		} else if (compile_resolve_value(c, a->value, &v, &org) < 0) {
			failed = true;
			continue;
		}
		if (store(c, s, obj, &v, &org, t->entity) < 0)
			failed = true;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct attr_spec *s = &t->specs[i];

		if ((s->flags & A_REQUIRED) && !(given & ((uint64_t)1 << i)) &&
		    !seen[i]) {
			diag_error(c->d, c->src, where,
				   "%s needs a '%s' attribute", what, s->name);
			failed = true;
		}
	}
	return failed ? (uint64_t)-1 : given;
}
