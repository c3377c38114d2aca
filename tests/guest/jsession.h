/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest-test helpers around a jmmap session: open, configure, add targets,
 * drain whole records into memory and look them up. Header-only; every
 * drained record is checked for the ABI's framing rules on the way in.
 */
#ifndef JMMAP_GUEST_JSESSION_H
#define JMMAP_GUEST_JSESSION_H

#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "jmmap.h"
#include "ktap.h"

#define JS_DEV "/dev/" JMMAP_DEVICE_NAME
#define JS_READ_BUF (64 * 1024)
#define JS_PAGE 4096UL

struct js_records {
	uint8_t *buf;
	size_t len, cap;
	size_t count;
	int framing_errors; /* records that broke the {type, size} rules */
};

static inline int js_open(uint64_t buffer_bytes, uint64_t config_flags)
{
	struct jmmap_config cfg = { .size = sizeof(cfg) };
	int fd = open(JS_DEV, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	cfg.flags = config_flags;
	cfg.buffer_bytes = buffer_bytes;
	if ((buffer_bytes || config_flags) && ioctl(fd, JMMAP_IOC_CONFIG, &cfg)) {
		close(fd);
		return -1;
	}
	return fd;
}

static inline int js_add(int fd, pid_t pid, uint64_t flags)
{
	struct jmmap_target t = { .size = sizeof(t) };

	t.pid = (uint32_t)pid;
	t.flags = flags;
	return ioctl(fd, JMMAP_IOC_ADD_TARGET, &t);
}

/* Open a session that follows this process (no snapshot), or skip all. */
static inline int js_open_self(uint64_t buffer_bytes, uint64_t config_flags)
{
	int fd = js_open(buffer_bytes, config_flags);

	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
	if (js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		printf("# ADD_TARGET self: %s\n", strerror(errno));
		exit(KSFT_FAIL);
	}
	return fd;
}

/*
 * Open a session for reading and writing, with a ring of @ring_bytes that
 * can be mapped; skip all if the module does not offer the mapped ring.
 */
static inline int js_open_ring(uint32_t ring_bytes)
{
	struct jmmap_version v = { .size = sizeof(v) };
	struct jmmap_config cfg = { .size = sizeof(cfg), .buffer_bytes = ring_bytes };
	int fd = open(JS_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap for writing: is jmmap loaded?");
	if (ioctl(fd, JMMAP_IOC_VERSION, &v) || !(v.features & JMMAP_FEAT_MMAP_RING))
		ktap_skip_all("the module does not offer the mapped ring");
	if (ioctl(fd, JMMAP_IOC_CONFIG, &cfg)) {
		printf("# CONFIG %u bytes: %s\n", ring_bytes, strerror(errno));
		exit(KSFT_FAIL);
	}
	return fd;
}

static inline void js_append(struct js_records *r, const uint8_t *p, size_t n)
{
	if (r->len + n > r->cap) {
		r->cap = (r->len + n) * 2 + 4096;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			abort();
	}
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

/* Read everything queued now (nonblocking fd); returns records read. */
static inline size_t js_drain(int fd, struct js_records *r)
{
	static uint8_t buf[JS_READ_BUF];
	size_t before = r->count;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		size_t off = 0;

		while (off + sizeof(struct jmmap_rec_header) <= (size_t)n) {
			const struct jmmap_rec_header *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || h->size % 8 || off + h->size > (size_t)n) {
				r->framing_errors++;
				break;
			}
			off += h->size;
			r->count++;
		}
		if (off != (size_t)n)
			r->framing_errors++;
		js_append(r, buf, (size_t)n);
	}
	if (n < 0 && errno != EAGAIN)
		r->framing_errors++;
	return r->count - before;
}

#define js_for_each(r, h)                                                                          \
	for (const struct jmmap_rec_header *h = (const void *)(r)->buf;                            \
	     (const uint8_t *)h < (r)->buf + (r)->len;                                             \
	     h = (const void *)((const uint8_t *)h + h->size))

static inline void js_free(struct js_records *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

static inline const char *js_mmap3_name(const struct jmmap_rec_mmap3 *m)
{
	return (const char *)(m + 1);
}

/*
 * The MUNMAP records of @pid in @r: their count in *@count, and the last of
 * exactly @start+@len with cause @cause (any cause when 0), or NULL.
 */
static inline const struct jmmap_rec_munmap *js_find_munmap(struct js_records *r, pid_t pid,
							    uint64_t start, uint64_t len,
							    uint32_t cause, int *count)
{
	const struct jmmap_rec_munmap *found = NULL;

	*count = 0;
	js_for_each(r, h) {
		const struct jmmap_rec_munmap *u = (const void *)h;

		if (h->type != JMMAP_REC_MUNMAP || u->pid != (uint32_t)pid)
			continue;
		(*count)++;
		if (u->start == start && u->len == len && (!cause || u->cause == cause))
			found = u;
	}
	return found;
}

static inline const char *js_exec_name(const struct jmmap_rec_exec *e)
{
	return (const char *)(e + 1);
}

static inline void js_hex(const uint8_t *b, unsigned int len, char *out)
{
	static const char d[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < len && i < JMMAP_COOKIE_MAX; i++) {
		out[2 * i] = d[b[i] >> 4];
		out[2 * i + 1] = d[b[i] & 15];
	}
	out[2 * i] = 0;
}

/* The last executable MMAP3 of @pid whose file name is @path; NULL if none. */
static inline const struct jmmap_rec_mmap3 *js_find_exec_map(const struct js_records *r, pid_t pid,
							      const char *path)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)pid && (m->prot & 4) &&
		    !strcmp(js_mmap3_name(m), path))
			found = m;
	}
	return found;
}

/* The cookie of @m in hex, or "(no record)". */
static inline void js_mmap3_cookie_hex(const struct jmmap_rec_mmap3 *m, char *hex)
{
	if (!m) {
		strcpy(hex, "(no record)");
		return;
	}
	js_hex(m->cookie, m->cookie_len, hex);
}

/*
 * Map @path executable (no read() first), drain @fd into @r, and give the
 * record's cookie in hex and its kind (0xff without a record).
 */
static inline int js_map_exec_cookie(int fd, struct js_records *r, const char *path, char *hex,
				     uint8_t *kind)
{
	const struct jmmap_rec_mmap3 *m;
	struct stat st;
	void *p;
	int f = open(path, O_RDONLY);

	if (f < 0 || fstat(f, &st))
		return -1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0);
	close(f);
	if (p == MAP_FAILED)
		return -1;
	js_drain(fd, r);
	munmap(p, (size_t)st.st_size);
	m = js_find_exec_map(r, getpid(), path);
	js_mmap3_cookie_hex(m, hex);
	*kind = m ? m->cookie_kind : 0xff;
	return m ? 0 : -1;
}

/* Copy @from to @to (created mode 0755, open @flags added), synced: 0 or -1. */
static inline int js_copy_file(const char *from, const char *to, int flags)
{
	char buf[8192];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | flags, 0755);
	ssize_t n;
	int err = in < 0 || out < 0;

	while (!err && (n = read(in, buf, sizeof(buf))) > 0)
		err = write(out, buf, (size_t)n) != n;
	if (!err)
		err = fsync(out);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err ? -1 : 0;
}

/*
 * The build-id `readelf -n` printed for @dir/@lib, from @dir/@lib.id (made
 * beside the library at build time), into @out: 0, or -1 without one.
 */
static inline int js_read_id(const char *dir, const char *lib, char *out, size_t len)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s.id", dir, lib);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = 0;
	return ok && *out ? 0 : -1;
}

/* Sync, then empty the page cache: a file's next read goes to the disk. 0 or -1. */
static inline int js_drop_caches(void)
{
	int f, err;

	sync();
	f = open("/proc/sys/vm/drop_caches", O_WRONLY);
	err = f < 0 || write(f, "3", 1) != 1;
	if (f >= 0)
		close(f);
	return err ? -1 : 0;
}

static inline const char *js_cause(unsigned int c)
{
	static const char *const n[] = { "?", "mmap", "mprotect", "exec", "brk", "snapshot", "mremap" };

	return c < 7 ? n[c] : "?";
}

static inline void js_dump(const struct js_records *r, pid_t only)
{
	char hex[41];

	js_for_each(r, h) {
		if (h->type == JMMAP_REC_MMAP3) {
			const struct jmmap_rec_mmap3 *m = (const void *)h;

			if (only && m->pid != (uint32_t)only)
				continue;
			js_hex(m->cookie, m->cookie_len, hex);
			printf("#   MMAP3 pid %u %s %llx+%llx vma %llx-%llx prot %x %s k%u:%s\n",
			       m->pid, js_cause(m->cause), (unsigned long long)m->start,
			       (unsigned long long)m->len, (unsigned long long)m->vma_start,
			       (unsigned long long)m->vma_end, m->prot, js_mmap3_name(m),
			       m->cookie_kind, hex);
		} else if (h->type == JMMAP_REC_MUNMAP) {
			const struct jmmap_rec_munmap *u = (const void *)h;

			if (only && u->pid != (uint32_t)only)
				continue;
			printf("#   MUNMAP pid %u %llx+%llx cause %u\n", u->pid,
			       (unsigned long long)u->start, (unsigned long long)u->len, u->cause);
		} else {
			printf("#   type %u size %u\n", h->type, h->size);
		}
	}
	fflush(stdout);
}

/*
 * Fork a child that runs @fn(@arg) with the reading end of one pipe
 * (requests) and the writing end of another (answers), then exits 0; the
 * parent gets the other two ends. The child's pid, or -1.
 */
static inline pid_t js_fork_served(void (*fn)(int req, int ans, void *arg), void *arg,
				   int *req_fd, int *ans_fd)
{
	int req[2], ans[2];
	pid_t pid;

	if (pipe(req))
		return -1;
	if (pipe(ans)) {
		close(req[0]);
		close(req[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(req[1]);
		close(ans[0]);
		fn(req[0], ans[1], arg);
		_exit(0);
	}
	close(req[0]);
	close(ans[1]);
	*req_fd = req[1];
	*ans_fd = ans[0];
	return pid;
}

#define JS_MAX_MAP_COUNT "/proc/sys/vm/max_map_count"

/*
 * vm.max_map_count open for writing, its value now in @old (@size bytes,
 * NUL-terminated) and its length in *@len; skip all if that cannot be.
 */
static inline int js_max_map_count_open(char *old, size_t size, ssize_t *len)
{
	int fd = open(JS_MAX_MAP_COUNT, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		ktap_skip_all("cannot open " JS_MAX_MAP_COUNT " for writing (not root?)");
	*len = pread(fd, old, size - 1, 0);
	if (*len <= 0)
		ktap_skip_all("cannot read " JS_MAX_MAP_COUNT);
	old[*len] = 0;
	return fd;
}

/* A page of x86-64 code that returns @value: mov eax, imm32; ret. */
static inline void js_write_code(void *page, uint32_t value)
{
	uint8_t *p = page;

	p[0] = 0xb8;
	memcpy(p + 1, &value, 4);
	p[5] = 0xc3;
}

static inline uint32_t js_run_code(void *page)
{
	uint32_t (*fn)(void) = (uint32_t (*)(void))page;

	return fn();
}

#endif
