/*
 * The flowops that move a file's data (read, write, appendfile,
 * appendfilerand, readwholefile, writewholefile): the run's per-op paths,
 * each timing exactly the syscalls filebench times.
 */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include "engine/flowops_int.h"

/* Inlined into fo_read and fo_write: the per-op path has no call to spare. */
static inline __attribute__((always_inline)) enum fo_result
do_rw(struct worker *wk, const struct ir_flowop *f, bool is_write)
{
	struct slot *s = slot_of(wk, f);
	enum fo_result r = s->fd >= 0 ? FO_OK : io_file(wk, f, &s);
	int64_t iosize = op_int(wk, &f->iosize);
	char *rbuf = NULL;
	const char *wbuf = NULL;
	uint64_t t0, off = 0;
	ssize_t n;
	bool vfy;

	if (r != FO_OK)
		return r;
	if (iosize <= 0)
		iosize = 1;
	vfy = __builtin_expect(slot_verify(wk, s), 0);
	if (f->random) {
		off = random_offset(wk, f, s, (uint64_t)iosize);
	} else if (vfy) {
		int64_t here = verify_offset(wk, f, s, SEEK_CUR);

		if (here < 0)
			return FO_ERROR;
		off = (uint64_t)here;
	}
	if (is_write)
		wbuf = vfy ? verify_data(wk, f, s, off, (uint64_t)iosize) :
			     write_data(wk, f, s, (uint64_t)iosize);
	else
		rbuf = buffer_for(wk, f, (uint64_t)iosize);
	if (!wbuf && !rbuf)
		return FO_ERROR;
	if (f->random) {
		t0 = op_start(wk);
		n = is_write ? pwrite(s->fd, wbuf, (size_t)iosize, (off_t)off) :
			       pread(s->fd, rbuf, (size_t)iosize, (off_t)off);
	} else {
		t0 = op_start(wk);
		n = is_write ? write(s->fd, wbuf, (size_t)iosize) :
			       read(s->fd, rbuf, (size_t)iosize);
	}
	if (n < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, is_write ? "write" : "read",
				    s);
	}
	op_done(wk, f, t0, (uint64_t)n);
	if (!is_write && !f->random && n == 0)
		lseek(s->fd, 0, SEEK_SET); /* sequential reads wrap at EOF */
	if (vfy && !is_write && n > 0)
		return verify_read(wk, f, s, rbuf, off, (uint64_t)n);
	return FO_OK;
}

enum fo_result fo_read(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, false);
}

enum fo_result fo_write(struct worker *wk, const struct ir_flowop *f)
{
	return do_rw(wk, f, true);
}

/*
 * An append to a verified file: its data depends on where it lands, so
 * the end is found before the clock starts and the write goes there with
 * pwrite (another thread's append in between would have moved the end a
 * timed lseek finds); the offset is then moved past it, as write does.
 */
static enum fo_result append_verified(struct worker *wk,
				      const struct ir_flowop *f,
				      const struct slot *s, uint64_t n)
{
	int64_t end = verify_offset(wk, f, s, SEEK_END);
	const char *buf;
	uint64_t t0;
	ssize_t got = 0;

	if (end < 0)
		return FO_ERROR;
	buf = verify_data(wk, f, s, (uint64_t)end, n ? n : 1);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (n > 0 && (got = pwrite(s->fd, buf, (size_t)n, (off_t)end)) < 0) {
		int err = errno;

		return op_fail_slot(wk, f, err, "append to", s);
	}
	op_done(wk, f, t0, (uint64_t)got);
	lseek(s->fd, (off_t)end + got, SEEK_SET);
	return FO_OK;
}

static enum fo_result append(struct worker *wk, const struct ir_flowop *f,
			     uint64_t n)
{
	struct slot *s;
	enum fo_result r = io_file(wk, f, &s);
	const char *buf;
	uint64_t t0;
	ssize_t got = 0;

	if (r != FO_OK)
		return r;
	if (slot_verify(wk, s))
		return append_verified(wk, f, s, n);
	buf = write_data(wk, f, s, n ? n : 1);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (n > 0) {
		if (lseek(s->fd, 0, SEEK_END) < 0 ||
		    (got = write(s->fd, buf, (size_t)n)) < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "append to", s);
		}
	}
	op_done(wk, f, t0, (uint64_t)got);
	return FO_OK;
}

enum fo_result fo_appendfile(struct worker *wk,
				    const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? (uint64_t)n : 0);
}

/* Uniform 0..iosize-1 bytes: the mean append is iosize/2. */
enum fo_result fo_appendfilerand(struct worker *wk,
					const struct ir_flowop *f)
{
	int64_t n = op_value(wk, &f->iosize);

	return append(wk, f, n > 0 ? rv_below(&wk->rng, (uint64_t)n) : 0);
}

enum fo_result fo_readwholefile(struct worker *wk,
				       const struct ir_flowop *f)
{
	struct slot *s;
	enum fo_result r = io_file(wk, f, &s);
	int64_t iosize, bad = -1;
	uint64_t t0, total = 0;
	char *buf;
	ssize_t n;
	bool vfy;

	if (r != FO_OK)
		return r;
	vfy = slot_verify(wk, s);
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0)
		iosize = (int64_t)wss_of(wk, f, s);
	if (iosize <= 0)
		iosize = 1;
	buf = buffer_for(wk, f, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	if (lseek(s->fd, 0, SEEK_SET) < 0)
		goto err;
	/* a small iosize makes a long op: the end of the run cuts it short */
	while ((n = read(s->fd, buf, (size_t)iosize)) > 0) {
		/* verify's checks are left out of the op's time */
		if (__builtin_expect(vfy, 0)) {
			uint64_t c0 = now_ns();

			if (bad < 0)
				bad = verify_check(wk, s, buf, total,
						   (uint64_t)n);
			t0 += now_ns() - c0;
		}
		total += (uint64_t)n;
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* cut short: not recorded */
	}
	if (n < 0)
		goto err;
	op_done(wk, f, t0, total);
	return bad < 0 ? FO_OK : verify_fail(wk, f, s, bad);
err:
	return op_fail_slot(wk, f, errno, "read", s);
}

enum fo_result fo_writewholefile(struct worker *wk,
					const struct ir_flowop *f)
{
	struct slot *s, *src = f->srcfd >= 0 ? &wk->slots[f->srcfd] : NULL;
	enum fo_result r = io_file(wk, f, &s);
	uint64_t size, t0, left;
	int64_t iosize, off = 0;
	const char *buf;
	ssize_t n;
	bool vfy;

	if (r != FO_OK)
		return r;
	vfy = slot_verify(wk, s);
	if (vfy && (off = verify_offset(wk, f, s, SEEK_CUR)) < 0)
		return FO_ERROR;
	if (src && src->fd < 0)
		return op_fail(wk, f, EBADF, "srcfd %" PRId64 " is not open",
			    f->srcfd);
	size = src ? wss_of(wk, f, src) : wss_of(wk, f, s);
	iosize = op_value(wk, &f->iosize);
	if (iosize <= 0 || (uint64_t)iosize > size)
		iosize = size > 0 ? (int64_t)size : 1;
	buf = vfy ? verify_data(wk, f, s, (uint64_t)off, (uint64_t)iosize) :
		    write_data(wk, f, s, (uint64_t)iosize);
	if (!buf)
		return FO_ERROR;
	t0 = op_start(wk);
	for (left = size; left > 0; left -= (uint64_t)n) {
		size_t chunk = left < (uint64_t)iosize ? left : (size_t)iosize;

		/* a pattern changes per write (bonnie's counter, stamps) */
		if (left < size && wk->gens[f->id] && !vfy &&
		    !(buf = write_data(wk, f, s, chunk)))
			return FO_ERROR;
		/* and verify's data with where it goes */
		if (left < size && vfy &&
		    !(buf = verify_data(wk, f, s,
					(uint64_t)off + (size - left), chunk)))
			return FO_ERROR;
		n = write(s->fd, buf, chunk);
		if (n < 0) {
			int err = errno;

			return op_fail_slot(wk, f, err, "write", s);
		}
		if (timeline_flag_set(wk->stop))
			return FO_OK; /* cut short: not recorded */
	}
	op_done(wk, f, t0, size);
	return FO_OK;
}
