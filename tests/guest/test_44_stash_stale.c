// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks nobody follows cannot take the module's per-task slots: 2048
 * threads of this (unfollowed) process each make an mprotect(PROT_EXEC)
 * fail after the module's hook ran (the vma split it needs is refused under
 * vm.max_map_count 1) and then stay parked. A followed child then maps 64
 * executable pages: every one must give its MMAP3, and nothing may be
 * counted lost. Then the child makes an mprotect(PROT_EXEC) of a page of
 * its heap fail the same way and grows the heap with brk(), which reports
 * the heap's vma: the failed call's entry must not be taken for the brk
 * (an MMAP3 with cause mprotect of a range that never became executable).
 */
#include <pthread.h>
#include <sys/wait.h>

#include "jsession.h"

#define MAX_MAP_COUNT JS_MAX_MAP_COUNT
#define THREADS 2048
#define MAPS 64

static pthread_barrier_t start, failed;
static int sysfd, n_failed_enomem;
static char old_max[32];
static ssize_t old_len;

static int lower_max_map_count(void)
{
	return pwrite(sysfd, "1\n", 2, 0) == 2 ? 0 : -1;
}

static int restore_max_map_count(void)
{
	return pwrite(sysfd, old_max, (size_t)old_len, 0) == old_len ? 0 : -1;
}

/* mprotect(PROT_EXEC) of the middle page of 3: a split that max_map_count 1 refuses. */
static int failing_mprotect(uint8_t *three_pages)
{
	return mprotect(three_pages + JS_PAGE, JS_PAGE, PROT_READ | PROT_EXEC) == -1 &&
	       errno == ENOMEM;
}

static void *parked_fn(void *arg)
{
	uint8_t *p = arg;
	int ok;

	pthread_barrier_wait(&start);
	ok = failing_mprotect(p);
	__atomic_add_fetch(&n_failed_enomem, ok, __ATOMIC_RELAXED);
	pthread_barrier_wait(&failed);
	pause(); /* parked until the process exits */
	return NULL;
}

/* Three whole pages at the end of the heap, grown for them. */
static uint8_t *heap_pages(void)
{
	uintptr_t cur = (uintptr_t)sbrk(0), pad = (JS_PAGE - cur % JS_PAGE) % JS_PAGE;

	if (sbrk((intptr_t)(pad + 3 * JS_PAGE)) == (void *)-1)
		return NULL;
	return (uint8_t *)(cur + pad);
}

/* The followed child: on "m", map MAPS executable pages; on "b", fail and brk. */
static void child_fn(int req, int ans, void *arg)
{
	uint8_t *p;
	char c;

	while (read(req, &c, 1) == 1) {
		int ok = 1;

		if (c == 'm') {
			for (int i = 0; i < MAPS; i++)
				ok &= mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED;
		} else if (c == 'b') {
			p = heap_pages();
			ok = p && !lower_max_map_count() && failing_mprotect(p);
			ok &= !restore_max_map_count();
			ok &= sbrk(16 * JS_PAGE) != (void *)-1;
		}
		if (write(ans, ok ? "y" : "n", 1) != 1)
			break;
	}
}

static int ask(int req, int ans, char what)
{
	char c = 0;

	return write(req, &what, 1) == 1 && read(ans, &c, 1) == 1 && c == 'y';
}

int main(void)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records r = { 0 };
	static pthread_t threads[THREADS];
	pthread_attr_t attr;
	int fd, req, ans, i, made = 0, maps = 0, bogus = 0, ok_m, ok_b, e = 0;
	uint8_t *pages;
	uint64_t lost = 0;
	pid_t child;

	ktap_begin();
	sysfd = js_max_map_count_open(old_max, sizeof(old_max), &old_len);
	fd = js_open(0, 0);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
	pages = mmap(NULL, (size_t)THREADS * 3 * JS_PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		ktap_skip_all("mmap failed");
	child = js_fork_served(child_fn, NULL, &req, &ans);
	if (child < 0 || js_add(fd, child, JMMAP_TARGET_NO_SNAPSHOT)) {
		printf("# fork and follow a child: %s\n", strerror(errno));
		return KSFT_FAIL;
	}

	pthread_barrier_init(&start, NULL, THREADS + 1);
	pthread_barrier_init(&failed, NULL, THREADS + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < THREADS; i++) {
		/* a 3-page region each, in one mapping */
		uint8_t *p = pages + (size_t)i * 3 * JS_PAGE;

		if (pthread_create(&threads[i], &attr, parked_fn, p))
			break;
		made++;
	}
	if (made < THREADS) {
		printf("# only %d threads\n", made);
		return KSFT_FAIL; /* the barriers wait for THREADS */
	}
	/* No output between lowering the limit and restoring it: stdio may map. */
	if (lower_max_map_count())
		ktap_skip_all("cannot lower " MAX_MAP_COUNT);
	pthread_barrier_wait(&start);
	pthread_barrier_wait(&failed);
	if (restore_max_map_count())
		e = errno;
	ktap_ok(!e && n_failed_enomem == THREADS,
		"parked_after_failed_mprotect: %d of %d threads' mprotect(PROT_EXEC) failed with "
		"ENOMEM, parked (limit restored: %s)", n_failed_enomem, THREADS,
		e ? strerror(e) : "yes");

	ok_m = ask(req, ans, 'm');
	js_drain(fd, &r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	for (i = 1; i < JMMAP_REC_MAX; i++)
		lost += st.lost[i];
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		maps += h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)child &&
			m->cause == JMMAP_CAUSE_MMAP && m->len == JS_PAGE;
	}
	ktap_ok(ok_m && maps == MAPS && lost == 0,
		"followed_child_keeps_its_mmap3: %d of %d MMAP3 while %d threads nobody follows "
		"are parked, %llu lost", maps, MAPS, THREADS, (unsigned long long)lost);

	js_free(&r);
	ok_b = ask(req, ans, 'b');
	js_drain(fd, &r);
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		bogus += h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)child &&
			 m->cause == JMMAP_CAUSE_MPROTECT;
	}
	ktap_ok(ok_b && bogus == 0,
		"failed_mprotect_not_reported: after a failed mprotect(PROT_EXEC) and a brk(), "
		"%d MMAP3 with cause mprotect (want 0)", bogus);

	close(req);
	close(ans);
	waitpid(child, NULL, 0);
	js_free(&r);
	close(fd);
	return ktap_finish();
}
