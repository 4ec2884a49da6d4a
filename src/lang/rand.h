/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Random variables: the distributions behind `randvar(...)` and `cvar(...)`.
 *
 * A struct rv_spec is plain data built by the compiler and shared read-only
 * by every thread.  Each thread owns a struct rv_rng, so sampling takes no
 * lock and makes no syscall.  The engine seeds each thread's from the
 * run's --seed (rv_rng_seed), whatever a spec's seed and src say;
 * rv_rng_init, which honours them, is the distributions' unit test's.
 */
#ifndef FBRUN_RAND_H
#define FBRUN_RAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X-macro: RV_DIST(id, name, is_cvar, "param names, ';' separated") */
#define RV_DIST_LIST(X)                                                        \
	X(UNIFORM, "uniform", 0, "")                                           \
	X(GAMMA, "gamma", 0, "")                                               \
	X(TABULAR, "tabular", 0, "")                                           \
	X(CV_GAMMA, "cvar-gamma", 1, "mean;gamma")                             \
	X(CV_NORMAL, "cvar-normal", 1, "mean;sigma")                           \
	X(CV_UNIFORM, "cvar-uniform", 1, "lower;upper")                        \
	X(CV_EXPONENTIAL, "cvar-exponential", 1, "mean")                       \
	X(CV_ERLANG, "cvar-erlang", 1, "shape;rate")                           \
	X(CV_LOGNORMAL, "cvar-lognormal", 1, "shape;scale")                    \
	X(CV_TRIANGULAR, "cvar-triangular", 1, "lower;upper;mode")             \
	X(CV_WEIBULL, "cvar-weibull", 1, "shape;scale")

enum rv_dist {
#define X(id, name, cv, params) RV_##id,
	RV_DIST_LIST(X)
#undef X
	RV_NDIST,
};

enum rv_src {
	RV_SRC_RAND48, /* deterministic: seeded from `seed` (default 0) */
	RV_SRC_URANDOM, /* seeded once from getrandom(2) */
};

#define RV_MAXPARAM 4

struct rv_bin {
	double pct; /* share of samples in this bin, percent */
	double min, max; /* uniform inside [min, max] */
};

struct rv_spec {
	enum rv_dist dist;
	enum rv_src src;
	uint64_t seed;
	bool has_seed;
	/* randvar(): min is added to every sample, round rounds it */
	double min;
	double max; /* cvar only; has_max says whether it was given */
	bool has_max;
	double round; /* 0 = no rounding */
	double mean; /* randvar gamma/uniform */
	double gamma; /* randvar gamma shape x 1000, as in the language */
	double param[RV_MAXPARAM]; /* cvar parameters in RV_DIST_LIST order */
	struct rv_bin *table; /* tabular; owned by the spec */
	size_t ntable;
};

/* Per-thread generator state. */
struct rv_rng {
	uint64_t s[4];
};

/* Name of a distribution as written in scripts ("gamma", "cvar-gamma"). */
const char *rv_dist_name(enum rv_dist d);

/*
 * Look up a distribution by the name a script uses.  For randvar `type=`
 * only uniform, gamma and tabular are valid; for cvar `type=` both
 * "cvar-gamma" and "gamma" spellings are accepted.  Returns -1 if unknown.
 */
int rv_dist_lookup(const char *name, bool cvar);

/* Whether the distribution is a cvar one (parameters="k:v;..."). */
bool rv_dist_is_cvar(enum rv_dist d);

/*
 * Parse a cvar parameters string "k:v;k:v" for distribution d into
 * spec->param[].  Missing keys get the distribution's defaults.  On error
 * returns -1 and writes a lowercase message without a final full stop
 * into err (for example "unknown parameter 'mu' for cvar-normal; expected
 * mean or sigma"), and *err_off is the byte offset in params where the
 * offending key or value starts.
 */
int rv_parse_params(struct rv_spec *spec, const char *params, char *err,
		    size_t errlen, size_t *err_off);

/*
 * Check a filled spec for consistency (tabular percentages sum to 100,
 * min <= max in bins, positive shapes, ...).  Returns 0 or -1 with a
 * message in err, as above.
 */
int rv_spec_check(const struct rv_spec *spec, char *err, size_t errlen);

/* Seed a generator from spec (seed, or urandom: the kernel) and a stream id. */
void rv_rng_init(struct rv_rng *rng, const struct rv_spec *spec,
		 uint64_t stream);
/* Seed from an explicit value. */
void rv_rng_seed(struct rv_rng *rng, uint64_t seed);

/* splitmix64's output function: a bijection that scatters every bit. */
static inline uint64_t rv_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The seed of one stream of a run from the stream's own base and the
 * run's seed (--seed): base itself for seed 0, the default (rv_mix64(0)
 * is 0 and no other seed maps there), so a run without --seed draws what
 * fbrun always drew there, filebench's trees among them.
 */
static inline uint64_t rv_seed_with(uint64_t base, uint64_t seed)
{
	return base ^ rv_mix64(seed);
}

/* Inline: random reads draw one per operation (xoshiro256**). */
static inline uint64_t rv_next_u64(struct rv_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t r = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = s[3] << 45 | s[3] >> 19;
	return r;
}

/* Uniform double in [0, 1). */
double rv_next_double(struct rv_rng *rng);

/* Uniform integer in [0, n) for n > 0, without modulo bias. */
static inline uint64_t rv_below(struct rv_rng *rng, uint64_t n)
{
	unsigned __int128 m;
	uint64_t low, t;

	if (!n)
		return 0;
	/*
	 * Multiply-shift with rejection (Lemire): the high word is the result;
	 * products whose low word falls below 2^64 mod n are redrawn so every
	 * value is equally likely.  The division runs only on the rare path.
	 */
	m = (unsigned __int128)rv_next_u64(rng) * n;
	low = (uint64_t)m;
	if (__builtin_expect(low < n, 0)) {
		t = -n % n;
		while (low < t) {
			m = (unsigned __int128)rv_next_u64(rng) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Raw samples of the standard distributions. */
double rv_exp(struct rv_rng *rng, double mean);
double rv_gamma(struct rv_rng *rng, double shape, double scale);
double rv_normal(struct rv_rng *rng, double mean, double sigma);

/*
 * One sample of the random variable, with min/max/round applied as the
 * language defines them.  Never negative.
 */
double rv_sample(const struct rv_spec *spec, struct rv_rng *rng);
/*
 * What rv_sample makes of a raw draw of a cvar distribution (round, min,
 * max), for a draw made elsewhere: fileset layout draws filebench's
 * cvar-gamma from filebench's own stream.
 */
double rv_cvar_finish(const struct rv_spec *spec, double raw);

/* The mean the distribution is configured for (for reports and -dump-ir). */
double rv_spec_mean(const struct rv_spec *spec);

void rv_spec_release(struct rv_spec *spec);

#endif
