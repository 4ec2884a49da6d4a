/*
 * Filesets in memory: the layout of a filebench tree, paths, and opening
 * beneath the root.  Picking entries is in fileset_pick.c, creating and
 * removing the tree on disk in fileset_disk.c.  See fileset.h.
 *
 * Layout is filebench's population algorithm: directories are made
 * recursively, each drawing a depth and a width; a directory deep enough
 * is a leaf holding `width` files; the root keeps adding subdirectories
 * until every file and leaf directory exists.  Entries are numbered in
 * creation order, which is the order round-robin picks follow.
 *
 * Memory: every directory, file and leaf directory is 8 bytes (parent
 * index and serial), files with random sizes add 8 bytes, and files and
 * leaf directories have one `exists` and one `busy` bit.
 */
#include "fileset_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPEN_HOW 1
#endif
#endif

void fs_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ layout */

/* Characters of a name: "%08d" of the serial. */
static size_t serial_width(uint64_t v)
{
	size_t n = 1;

	if (v < 100000000u) /* the common case, on every op's path: no loop */
		return 8;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n < 8 ? 8 : n;
}

/* Length of the path `len` long with the name of serial added. */
static size_t path_len(size_t len, uint64_t serial)
{
	return len + (len ? 1 : 0) + serial_width(serial);
}

#define MAX_DEPTH 1000.0 /* as the dirdepthrv attribute's range */

struct layout {
	struct fileset *fs;
	const struct workload *w;
	const struct ir_fileset *def;
	struct rv_rng rng, size_rng;
	double gamma, meandepth, meanwidth;
	char *err;
	size_t errlen;
};

static double value_mean(const struct workload *w, const struct ir_value *v,
			 double def)
{
	switch (v->kind) {
	case IRV_INT:
		return (double)v->i;
	case IRV_DOUBLE:
		return v->d;
	case IRV_RAND:
		return rv_spec_mean(&w->randvars[v->rv].spec);
	default:
		return def;
	}
}

static double value_draw(const struct workload *w, const struct ir_value *v,
			 struct rv_rng *rng, double def)
{
	if (v->kind == IRV_RAND)
		return rv_sample(&w->randvars[v->rv].spec, rng);
	return value_mean(w, v, def);
}

static int kind_alloc(struct fs_kind *k, int64_t n)
{
	if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(*k->ent) - 1)
		return -1;
	k->ent = malloc(((size_t)n + 1) * sizeof(*k->ent));
	return k->ent ? 0 : -1;
}

static int64_t add_dir(struct layout *l, uint32_t parent, uint64_t serial)
{
	struct fileset *fs = l->fs;

	if (fs->ndirs >= NO_DIR || serial > UINT32_MAX) {
		fs_set_err(l->err, l->errlen,
			"fileset '%s' needs more than 2^32 directories",
			fs->name);
		return -1;
	}
	if (fs->ndirs == fs->dircap) {
		uint64_t cap = fs->dircap ? fs->dircap * 2 : 256;
		void *p = realloc(fs->dirs, cap * sizeof(*fs->dirs));

		if (!p) {
			fs_set_err(l->err, l->errlen,
				"out of memory laying out fileset '%s'",
				fs->name);
			return -1;
		}
		fs->dirs = p;
		fs->dircap = cap;
	}
	fs->dirs[fs->ndirs] = (struct fs_ent){ parent, (uint32_t)serial };
	return (int64_t)fs->ndirs++;
}

static int add_entry(struct layout *l, struct fs_kind *k, uint32_t dir,
		     uint64_t serial, uint64_t limit)
{
	if (serial > UINT32_MAX) {
		fs_set_err(l->err, l->errlen,
			"fileset '%s' has a directory of more than 2^32 entries",
			l->fs->name);
		return -1;
	}
	if (k->n < limit)
		k->ent[k->n++] = (struct fs_ent){ dir, (uint32_t)serial };
	return 0;
}

static int add_file(struct layout *l, uint32_t dir, uint64_t serial,
		    uint64_t depth)
{
	struct fileset *fs = l->fs;
	uint64_t e = fs->files.n;

	if (add_entry(l, &fs->files, dir, serial, (uint64_t)l->def->entries))
		return -1;
	fs->depth_sum += depth; /* the root is depth 1 */
	if (fs->sizes) {
		double v = value_draw(l->w, &l->def->size, &l->size_rng, 1024);

		fs->sizes[e] = v < 0x1p63 ? (uint64_t)v : (uint64_t)1 << 63;
	}
	return 0;
}

static double draw_depth(struct layout *l)
{
	const struct ir_value *v = &l->def->dirdepth;
	double d;

	if (v->kind != IRV_NONE)
		d = value_draw(l->w, v, &l->rng, 1);
	else if (l->gamma > 0)
		d = rv_gamma(&l->rng, l->gamma, l->meandepth / l->gamma);
	else
		d = l->meandepth;
	d = floor(d); /* filebench truncates the drawn depth */
	/* bounds the recursion; deeper paths exceed PATH_MAX anyway */
	if (d > MAX_DEPTH)
		d = MAX_DEPTH;
	return d >= 1 ? d : 1;
}

static double draw_width(struct layout *l)
{
	double x;

	if (l->def->dirwidth.kind == IRV_RAND)
		x = value_draw(l->w, &l->def->dirwidth, &l->rng, 1);
	else if (l->gamma > 0)
		x = rv_gamma(&l->rng, l->gamma, l->meanwidth / l->gamma);
	else
		x = l->meanwidth;
	return x > 0 ? x : 1;
}

/*
 * Every path beneath the root must fit in PATH_MAX, the most a system
 * call takes: a deeper tree is an error here, before anything is made.
 */
static int path_fits(struct layout *l, size_t len, uint64_t serial,
		     uint64_t depth)
{
	if (path_len(len, serial) < PATH_MAX)
		return 0;
	fs_set_err(l->err, l->errlen,
		   "fileset '%s' would have paths of more than %d bytes "
		   "below its root (%" PRIu64 " levels deep): lower its depth "
		   "(dirdepthrv, dirgamma) or widen it (dirwidth)",
		   l->fs->name, PATH_MAX - 1, depth);
	return -1;
}

/*
 * One directory and, recursively, its contents (filebench's
 * fileset_populate_subdir).  Serials run on across both loops so a leaf
 * directory never takes the name of a file, which filebench allows.
 * len: the length of the directory's path below the root.
 */
static int populate(struct layout *l, uint32_t parent, uint64_t serial,
		    uint64_t depth, size_t len)
{
	struct fileset *fs = l->fs;
	uint64_t nfiles = (uint64_t)l->def->entries;
	uint64_t nleaves = (uint64_t)l->def->leafdirs;
	bool root = parent == NO_DIR, leaf;
	uint64_t next = 1, i;
	int64_t d = add_dir(l, parent, serial);
	double rdepth, rwidth;
	int rc = 0;

	if (d < 0)
		return -1;
	depth++;
	rdepth = draw_depth(l);
	rwidth = draw_width(l);
	leaf = !root && depth >= rdepth;
	for (i = 1; (root || i < rwidth + 1) && fs->files.n < nfiles && !rc;
	     i++, next++) {
		if (path_fits(l, len, next, depth) < 0)
			return -1;
		if (leaf)
			rc = add_file(l, (uint32_t)d, next, depth);
		else
			rc = populate(l, (uint32_t)d, next, depth,
				      path_len(len, next));
	}
	for (i = 1; (root || i < rwidth + 1) && fs->leaves.n < nleaves && !rc;
	     i++, next++) {
		if (path_fits(l, len, next, depth) < 0)
			return -1;
		if (leaf)
			rc = add_entry(l, &fs->leaves, (uint32_t)d, next,
				       nleaves);
		else
			rc = populate(l, (uint32_t)d, next, depth,
				      path_len(len, next));
	}
	return rc;
}

static int layout_init(struct layout *l, struct fileset *fs, uint64_t seed)
{
	const struct ir_fileset *def = l->def;
	double n = (double)def->entries + (double)def->leafdirs;

	rv_rng_seed(&l->rng, seed);
	rv_rng_seed(&l->size_rng, seed ^ 0x5bd1e995a5a5a5a5ULL);
	l->gamma = (double)def->dirgamma / 1000;
	/* filebench takes the integer part of the mean width */
	l->meanwidth = floor(value_mean(l->w, &def->dirwidth, 1));
	/*
	 * ln(n)/ln(width); where filebench would divide by zero (n <= 1,
	 * width <= 1) the files go right below the root's subdirectories.
	 */
	if (n <= 1)
		l->meandepth = 0;
	else if (l->meanwidth <= 1)
		l->meandepth = 1;
	else
		l->meandepth = log(n) / log(l->meanwidth);
	if (kind_alloc(&fs->files, def->entries) ||
	    kind_alloc(&fs->leaves, def->leafdirs))
		return -1;
	if (def->size.kind == IRV_RAND) {
		fs->sizes = malloc(((size_t)def->entries + 1) * sizeof(uint64_t));
		if (!fs->sizes)
			return -1;
	} else {
		double v = value_mean(l->w, &def->size, 1024);

		fs->size = v > 0 ? (uint64_t)v : 0;
	}
	return 0;
}

/*
 * The shared round robin's block: as many consecutive entries as keep a
 * thread in directories of its own, up to one cache line of bitmap, while
 * all threads' blocks together hold at most a quarter of the entries (a
 * small fileset is shared entry by entry); and the bitmaps, a line per
 * block (fs_kind).  -1: out of memory.
 */
static int kind_blocks(struct fs_kind *k, uint64_t nworkers)
{
	uint64_t per = k->n / 4 / (nworkers ? nworkers : 1);

	k->shift = FS_BLOCK_SHIFT;
	while (k->shift > 0 && (1ULL << k->shift) > per)
		k->shift--;
	k->block = 1ULL << k->shift;
	k->nblocks = (k->n + k->block - 1) / k->block;
	k->nwords = k->nblocks * 8;
	k->exists = calloc_lines(k->nwords, sizeof(_Atomic uint64_t));
	k->busy = calloc_lines(k->nwords, sizeof(_Atomic uint64_t));
	return k->exists && k->busy ? 0 : -1;
}

struct fileset *fileset_new(const struct workload *w, int index,
			    uint64_t seed, char *err, size_t errlen)
{
	struct layout l = { .w = w, .err = err, .errlen = errlen };
	struct fileset *fs;
	uint64_t nworkers;
	void *shrunk;
	size_t plen;

	if (index < 0 || (size_t)index >= w->nfilesets ||
	    !w->filesets[index].name || !w->filesets[index].path) {
		fs_set_err(err, errlen, "no fileset number %d", index);
		return NULL;
	}
	l.def = &w->filesets[index];
	fs = calloc_lines(1, sizeof(*fs)); /* its rotors are line-aligned */
	if (!fs) {
		fs_set_err(err, errlen, "out of memory for fileset '%s'",
			   l.def->name);
		return NULL;
	}
	l.fs = fs;
	fs->rootfd = -1;
	fs->name = xstrdup(l.def->name);
	fs->path = xstrdup(l.def->path);
	plen = strlen(fs->path);
	fs->root = xasprintf("%s%s%s", fs->path,
			     plen && fs->path[plen - 1] == '/' ? "" : "/",
			     fs->name);
	fs->prealloc = l.def->prealloc;
	fs->paralloc = l.def->paralloc;
	fs->reuse = l.def->reuse;
	fs->trusttree = l.def->trusttree;
	fs->data = l.def->data;
	fs->seed = seed;
	if (layout_init(&l, fs, seed) < 0) {
		fs_set_err(err, errlen, "out of memory laying out fileset '%s'",
			fs->name);
		goto fail;
	}
	if (populate(&l, NO_DIR, 1, 0, 0) < 0)
		goto fail;
	nworkers = workload_nworkers(w);
	if (kind_blocks(&fs->files, nworkers) < 0 ||
	    kind_blocks(&fs->leaves, nworkers) < 0) {
		fs_set_err(err, errlen, "out of memory laying out fileset '%s'",
			   fs->name);
		goto fail;
	}
	/* give back the slack of the doubling (keep it if realloc fails) */
	shrunk = realloc(fs->dirs, fs->ndirs * sizeof(*fs->dirs));
	if (shrunk) {
		fs->dirs = shrunk;
		fs->dircap = fs->ndirs;
	}
	return fs;
fail:
	fileset_free(fs);
	return NULL;
}

void fileset_free(struct fileset *fs)
{
	if (!fs)
		return;
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	for (size_t i = 0; i < fs->nmade; i++)
		free(fs->made[i]);
	free(fs->made);
	free(fs->files.ent);
	free(fs->files.exists);
	free(fs->files.busy);
	free(fs->leaves.ent);
	free(fs->leaves.exists);
	free(fs->leaves.busy);
	free(fs->sizes);
	free(fs->dirs);
	free(fs->name);
	free(fs->path);
	free(fs->root);
	free(fs);
}

/* ------------------------------------------------------------ getters */

const char *fileset_name(const struct fileset *fs)
{
	return fs->name;
}

const char *fileset_root(const struct fileset *fs)
{
	return fs->root;
}

uint64_t fileset_nfiles(const struct fileset *fs)
{
	return fs->files.n;
}

uint64_t fileset_nleafdirs(const struct fileset *fs)
{
	return fs->leaves.n;
}

uint64_t fileset_ndirs(const struct fileset *fs)
{
	return fs->ndirs;
}

uint64_t fileset_nexisting(const struct fileset *fs)
{
	return fs_nexisting(&fs->files);
}

uint64_t fileset_prealloc_bytes(const struct fileset *fs)
{
	return atomic_load(&((struct fileset *)fs)->bytes);
}

/* Entries (subdirectories, files, leaf dirs) per directory. */
double fileset_mean_width(const struct fileset *fs)
{
	return (double)(fs->ndirs - 1 + fs->files.n + fs->leaves.n) /
	       (double)fs->ndirs;
}

/* Path components of a file, averaged over the files. */
double fileset_mean_depth(const struct fileset *fs)
{
	return fs->files.n ? (double)fs->depth_sum / (double)fs->files.n : 0;
}

int fileset_rootfd(const struct fileset *fs)
{
	return fs->rootfd;
}

uint64_t fileset_entry_size(const struct fileset *fs, int64_t e)
{
	if (e < 0 || (uint64_t)e >= fs->files.n)
		return 0;
	return fs->sizes ? fs->sizes[e] : fs->size;
}

/* ------------------------------------------------------------ paths */

/* Two digits a step: paths are built on every metadata op. */
static void put_serial(char *end, size_t width, uint32_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";

	for (; width >= 2; width -= 2, v /= 100) {
		end -= 2;
		memcpy(end, pairs + 2 * (v % 100), 2);
	}
	if (width)
		*--end = (char)('0' + v % 10);
}

/* dir's path, then `last` (0: none) below it; written from the end. */
static int build_path(const struct fileset *fs, uint32_t dir, uint32_t last,
		      char *buf, size_t len)
{
	size_t need = last ? serial_width(last) : 0, pos;
	uint32_t d;

	for (d = dir; d != 0; d = fs->dirs[d].parent)
		need += serial_width(fs->dirs[d].serial) + (need ? 1 : 0);
	if (need == 0) {
		if (len < 2)
			return -1;
		strcpy(buf, ".");
		return 1;
	}
	if (need >= len || need > INT32_MAX)
		return -1;
	pos = need;
	buf[pos] = '\0';
	if (last) {
		put_serial(buf + pos, serial_width(last), last);
		pos -= serial_width(last);
	}
	for (d = dir; d != 0; d = fs->dirs[d].parent) {
		size_t wd = serial_width(fs->dirs[d].serial);

		if (pos != need)
			buf[--pos] = '/';
		put_serial(buf + pos, wd, fs->dirs[d].serial);
		pos -= wd;
	}
	return (int)need;
}

int fileset_relpath(const struct fileset *fs, enum fs_pick kind, int64_t e,
		    char *buf, size_t len)
{
	const struct fs_kind *k = fs_kind_of((struct fileset *)fs, kind);

	if (e < 0 || (uint64_t)e >= k->n)
		return -1;
	return build_path(fs, k->ent[e].parent, k->ent[e].serial, buf, len);
}

int fileset_dirpath(const struct fileset *fs, int64_t dir, char *buf,
		    size_t len)
{
	if (dir < 0 || (uint64_t)dir >= fs->ndirs)
		return -1;
	return build_path(fs, (uint32_t)dir, 0, buf, len);
}

/* Add one to the decimal name at s (n digits); false if it carries out. */
static bool name_next(char *s, size_t n)
{
	while (n--) {
		if (s[n] != '9') {
			s[n]++;
			return true;
		}
		s[n] = '0';
	}
	return false;
}

/*
 * fileset_path: l->path holds the path of directory l->pdir, l->plen
 * long, then the name of serial l->serial.  Only a new directory is built
 * from the tree; the next entry in the same one, the usual case in a
 * block, changes a digit or two.
 */
const char *fileset_path(const struct fileset *fs, enum fs_pick kind,
			 int64_t e, struct fs_local *l)
{
	const struct fs_ent *en =
		&fs_kind_of((struct fileset *)fs, kind)->ent[e];
	char *name;
	size_t w;

	if (en->parent != l->pdir) {
		/* fileset_new saw to it that every path fits */
		int n = build_path(fs, en->parent, 0, l->path, sizeof(l->path));

		l->plen = en->parent == 0 || n < 0 ? 0 : (size_t)n;
		l->pdir = en->parent;
		l->serial = 0;
		if (l->plen)
			l->path[l->plen] = '/';
	}
	name = l->path + (l->plen ? l->plen + 1 : 0);
	if (en->serial != l->serial + 1 || !l->serial ||
	    !name_next(name, serial_width(l->serial))) {
		w = serial_width(en->serial);
		put_serial(name + w, w, en->serial);
		name[w] = '\0';
	}
	l->serial = en->serial;
	return l->path;
}

int fileset_parent(struct fileset *fs, enum fs_pick kind, int64_t e,
		   struct fs_local *l, const char **name)
{
	const char *p = fileset_path(fs, kind, e, l);
	int fd;

	*name = p + (l->plen ? l->plen + 1 : 0);
	if (l->pdir == 0)
		return fs->rootfd;
	if (l->fdir == l->pdir)
		return l->dirfd;
	if (l->dirfd >= 0)
		close(l->dirfd);
	l->fdir = NO_DIR;
	l->path[l->plen] = '\0'; /* the directory's path alone, for a moment */
	fd = fs_open_beneath(fs->rootfd, p, O_PATH | O_DIRECTORY, 0);
	l->path[l->plen] = '/';
	if ((l->dirfd = fd) < 0)
		return -1;
	l->fdir = l->pdir;
	return fd;
}

/* ------------------------------------------------------------ opening */

static _Atomic int openat2_state; /* 0 untried, 1 works, -1 no syscall */

/*
 * The directory holding rel's last component, reached one component at a
 * time with O_NOFOLLOW and never through "..", so even without openat2
 * nothing outside dirfd is touched; mk makes missing directories on the
 * way.  *last is set to the last component.  The result may be dirfd.
 */
static int walk_parent(int dirfd, const char *rel, bool mk, const char **last)
{
	int fd = dirfd, nfd;
	char comp[NAME_MAX + 1];
	const char *slash;

	if (rel[0] == '/')
		return errno = EXDEV, -1;
	for (; (slash = strchr(rel, '/')); rel = slash + 1) {
		size_t n = (size_t)(slash - rel);

		if (n == 0 || (n == 1 && rel[0] == '.'))
			continue;
		if (n > NAME_MAX)
			return errno = ENAMETOOLONG, -1;
		memcpy(comp, rel, n);
		comp[n] = '\0';
		if (strcmp(comp, "..") == 0)
			errno = EXDEV, nfd = -1;
		else if (mk && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
			nfd = -1;
		else
			nfd = openat(fd, comp, O_PATH | O_DIRECTORY |
						       O_NOFOLLOW | O_CLOEXEC);
		if (fd != dirfd) {
			int e = errno;

			close(fd);
			errno = e;
		}
		if (nfd < 0)
			return -1;
		fd = nfd;
	}
	*last = *rel ? rel : ".";
	if (strcmp(*last, "..") == 0) {
		if (fd != dirfd)
			close(fd);
		return errno = EXDEV, -1;
	}
	return fd;
}

static int open_walk(int dirfd, const char *rel, int flags, mode_t mode)
{
	const char *last;
	int pfd = walk_parent(dirfd, rel, false, &last), fd, e;

	if (pfd < 0)
		return -1;
	fd = openat(pfd, last, flags, mode);
	e = errno;
	if (pfd != dirfd)
		close(pfd);
	errno = e;
	return fd;
}

/* Set FBRUN_NO_OPENAT2 at build time to test the fallback. */
#if defined(SYS_openat2) && defined(HAVE_OPEN_HOW) && !defined(FBRUN_NO_OPENAT2)
static int try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_LARGEFILE),
		.mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
	};
	long fd;

	if (atomic_load_explicit(&openat2_state, memory_order_relaxed) < 0)
		return errno = ENOSYS, -1;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		atomic_store_explicit(&openat2_state, -1, memory_order_relaxed);
	return (int)fd;
}
#else
static int try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	(void)dirfd, (void)rel, (void)flags, (void)mode;
	atomic_store_explicit(&openat2_state, -1, memory_order_relaxed);
	return errno = ENOSYS, -1;
}
#endif

int fs_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	int fd;

	flags |= O_CLOEXEC | O_NOFOLLOW;
	fd = try_openat2(dirfd, rel, flags, mode);
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	return open_walk(dirfd, rel, flags, mode);
}

int fileset_openat(struct fileset *fs, const char *rel, int flags,
		   mode_t mode)
{
	int fd = fs_open_beneath(fs->rootfd, rel, flags, mode), pfd;
	const char *last;

	if (fd >= 0 || errno != ENOENT || !(flags & O_CREAT))
		return fd;
	/* createfile: make the missing parents, then try again */
	pfd = walk_parent(fs->rootfd, rel, true, &last);
	if (pfd < 0)
		return -1;
	if (pfd != fs->rootfd)
		close(pfd);
	return fs_open_beneath(fs->rootfd, rel, flags, mode);
}
