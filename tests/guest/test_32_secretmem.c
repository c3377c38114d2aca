// SPDX-License-Identifier: GPL-2.0
/*
 * Secret memory is never read for a cookie: a memfd_secret() file's pages
 * are removed from the kernel's direct map, so a copy from them oopses. A
 * session that asks for data mappings follows this process while it maps
 * one such file twice, shared: first with no page in the page cache, then,
 * after writing to every page through the first mapping, with all of them
 * there (MAP_POPULATE cannot fault secret memory in: GUP refuses it).
 * Each mapping must give an MMAP3 with no cookie, why: not read; the secret
 * stays as written; and the console stays clean (the suite checks it).
 */
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "jsession.h"

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

#define LEN (4 * JS_PAGE)
#define SECRET "jmmap-secret-0123456789"

/* The MMAP3 records of this process for the file of @st: count, the last one. */
static const struct jmmap_rec_mmap3 *find_file_map(const struct js_records *r,
						   const struct stat *st, int *count)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	*count = 0;
	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type != JMMAP_REC_MMAP3 || m->pid != (uint32_t)getpid() ||
		    m->ino != (uint64_t)st->st_ino || m->dev_major != major(st->st_dev) ||
		    m->dev_minor != minor(st->st_dev))
			continue;
		(*count)++;
		found = m;
	}
	return found;
}

/* Map the secret file shared, drain, and check the one new MMAP3 of it. */
static uint8_t *map_and_check(int fd, int sfd, const struct stat *st, int flags,
			      const char *name, const char *what)
{
	struct js_records r = { 0 };
	const struct jmmap_rec_mmap3 *m;
	unsigned int why;
	uint8_t *p;
	int count;

	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED | flags, sfd, 0);
	if (p == MAP_FAILED) {
		ktap_ok(0, "%s: mmap of the secret file: %s", name, strerror(errno));
		return NULL;
	}
	js_drain(fd, &r);
	m = find_file_map(&r, st, &count);
	why = m ? m->hdr.flags & JMMAP_COOKIE_WHY_MASK : 0;
	if (!ktap_ok(count == 1 && m->cookie_kind == JMMAP_COOKIE_NONE &&
			     why == JMMAP_COOKIE_WHY_NOT_READ && !r.framing_errors,
		     "%s: %s gives one MMAP3 (%d) of '%s', no cookie (kind %d), why %u "
		     "(want %u, not read)",
		     name, what, count, m ? js_mmap3_name(m) : "-", m ? m->cookie_kind : -1, why,
		     JMMAP_COOKIE_WHY_NOT_READ))
		js_dump(&r, getpid());
	js_free(&r);
	return p;
}

int main(void)
{
	uint8_t *first, *second;
	struct stat st;
	int fd, sfd;

	ktap_begin();
	sfd = (int)syscall(SYS_memfd_secret, 0);
	if (sfd < 0)
		ktap_skip_all(errno == ENOSYS ? "no memfd_secret() (secretmem.enable=0?)" :
						"memfd_secret() failed");
	if (ftruncate(sfd, LEN) || fstat(sfd, &st))
		ktap_skip_all("cannot size the secret memory file");
	fd = js_open_self(0, JMMAP_CONFIG_DATA_MMAPS);

	first = map_and_check(fd, sfd, &st, 0, "secret_uncached_not_read",
			      "a mapping with no page cached");
	if (first) {
		memset(first, 0x5a, LEN);
		memcpy(first + JS_PAGE, SECRET, sizeof(SECRET));
	}
	second = map_and_check(fd, sfd, &st, 0, "secret_cached_not_read",
			       "a mapping with every page cached");
	ktap_ok(second && !memcmp(second + JS_PAGE, SECRET, sizeof(SECRET)),
		"secret_intact: the second mapping reads what the first wrote");
	if (first)
		munmap(first, LEN);
	if (second)
		munmap(second, LEN);
	close(sfd);
	close(fd);
	return ktap_finish();
}
