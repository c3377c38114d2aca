// SPDX-License-Identifier: GPL-2.0
/*
 * MAP_FIXED or munmap over tens of thousands of vmas: the hooks run with
 * preemption disabled, so they must look at a bounded number of vmas, not
 * at every one the call replaces or unmaps. A region of NPAGES pages is
 * split into NPAGES vmas, odd pages executable; a SCHED_FIFO thread on the
 * same CPU as the mapping thread wakes every TICK_US and notes how late it
 * woke while the one system call runs. On PREEMPT_RT the kernel's own
 * unmapping is preemptible, so the worst wake-up with a session following
 * the process must stay near the worst without one (the same call on the
 * same region, hooks disarmed), give or take the noise of an emulating host
 * (LATE_SLACK_US). Everywhere, the records
 * stay what a MUNMAP can say: one for each of the first three pieces of
 * code, exactly, the fourth stretched to the end of the last one.
 *
 * The latency bound catches a walk of every vma during munmap (about 7 ms
 * under emulation) only now and then, within the noise of a loaded host.
 * So the vmas the hooks look at are counted too, on every kernel: the hooks
 * call exec_walk_add() (kmod/hooks-mm.c) once for each, and a kprobe event
 * on it counts its calls during the one system call. The bound is
 * UNMAP_WALK and a margin; a walk of every vma makes tens of thousands.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/utsname.h>
#include <time.h>

#include "jsession.h"

#define NPAGES 60000UL
#define TICK_US 500
/*
 * The whole walk of 60k vmas kept preemption disabled for about 20 ms
 * during MAP_FIXED under emulation (7 ms during munmap, which is within
 * the noise of a loaded host); without a session the thread is 1 to 12 ms
 * late, more when the emulating host is busy. The bound: half as late
 * again as without a session, and LATE_SLACK_US more.
 */
#define LATE_SLACK_US 6000
#define REPS 5
#define UNMAP_WALK 64 /* kmod/hooks-mm.c */
/* the hooks look at vmas for any process: room for another's unmap meanwhile */
#define LOOKED_MAX (UNMAP_WALK + 32)
#define TRACING "/sys/kernel/tracing"
#define PROBE "jmmap_test45/exec_walk_add"

static volatile int measuring, stop, ticking;
static volatile long long worst_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The wake-up thread: how late each tick came while measuring. */
static void *ticker(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	long long late;
	struct timespec t;

	(void)arg;
	if (pin_cpu0() || sched_setscheduler(0, SCHED_FIFO, &sp))
		return NULL;
	ticking = 1;
	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!stop) {
		t.tv_nsec += TICK_US * 1000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		late = now_ns() - (t.tv_sec * 1000000000LL + t.tv_nsec);
		if (measuring && late > worst_ns)
			worst_ns = late;
		/* far behind (the first tick, a stall): start again from now */
		if (late > TICK_US * 1000L)
			clock_gettime(CLOCK_MONOTONIC, &t);
	}
	return NULL;
}

static int write_text(const char *path, const char *text, int append)
{
	int f = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	ssize_t n = f < 0 ? -1 : write(f, text, strlen(text));

	if (f >= 0)
		close(f);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void probe_remove(void)
{
	write_text(TRACING "/events/" PROBE "/enable", "0", 0);
	write_text(TRACING "/kprobe_events", "-:" PROBE "\n", 1);
}

/* An enabled kprobe event on jmmap's exec_walk_add(): 0 or -1. */
static int probe_add(void)
{
	probe_remove();
	write_text(TRACING "/tracing_on", "0", 0); /* counted, not recorded */
	if (write_text(TRACING "/kprobe_events", "p:" PROBE " jmmap:exec_walk_add\n", 1) ||
	    write_text(TRACING "/events/" PROBE "/enable", "1", 0)) {
		printf("# a kprobe event on jmmap:exec_walk_add: %s\n", strerror(errno));
		probe_remove();
		return -1;
	}
	return 0;
}

/* Its hits so far (kprobe_profile), or -1. */
static long long probe_hits(void)
{
	FILE *f = fopen(TRACING "/kprobe_profile", "r");
	unsigned long long hits, missed;
	long long found = -1;
	char name[128];

	if (!f)
		return -1;
	while (fscanf(f, "%127s %llu %llu", name, &hits, &missed) == 3)
		if (!strcmp(name, PROBE) || !strcmp(name, strchr(PROBE, '/') + 1))
			found = (long long)hits;
	fclose(f);
	return found;
}

/* NPAGES pages, one vma each: odd pages R-X, even pages R--. */
static uint8_t *many_vmas(void)
{
	uint8_t *p = mmap(NULL, NPAGES * JS_PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long i;

	if (p == MAP_FAILED)
		return NULL;
	for (i = 1; i < NPAGES; i += 2) {
		if (mprotect(p + i * JS_PAGE, JS_PAGE, PROT_READ | PROT_EXEC)) {
			printf("# mprotect page %lu: %s\n", i, strerror(errno));
			munmap(p, NPAGES * JS_PAGE);
			return NULL;
		}
	}
	return p;
}

struct run {
	long long call_ns, worst_ns;
	long long looked; /* vmas the hooks looked at during the call; -1 unknown */
	int err;
};

/* Replace (MAP_FIXED) or unmap the region while the ticker measures. */
static struct run unmap_measured(uint8_t *p, int fixed, int count)
{
	struct run r = { 0 };
	long long t0, hits0 = count ? probe_hits() : -1;
	void *q = NULL;

	worst_ns = 0;
	usleep(20000);
	measuring = 1;
	t0 = now_ns();
	if (fixed)
		q = mmap(p, NPAGES * JS_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	else
		r.err = munmap(p, NPAGES * JS_PAGE) ? errno : 0;
	r.call_ns = now_ns() - t0;
	r.looked = hits0 >= 0 ? probe_hits() - hits0 : -1;
	/* a tick that was due during the call may still be on its way */
	usleep(5000);
	measuring = 0;
	r.worst_ns = worst_ns;
	if (fixed) {
		r.err = q == p ? 0 : errno;
		munmap(p, NPAGES * JS_PAGE);
	}
	return r;
}

/* The MUNMAPs of the region: pages 1, 3 and 5, then 7 up to the end. */
static void check_records(int fd, uint8_t *p, uint32_t cause, const char *name)
{
	struct js_records r = { 0 };
	int count, ok = 1, i;

	js_drain(fd, &r);
	for (i = 0; i < 3; i++)
		ok &= js_find_munmap(&r, getpid(), (uintptr_t)p + (2 * i + 1) * JS_PAGE, JS_PAGE,
				     cause, &count) != NULL;
	ok &= js_find_munmap(&r, getpid(), (uintptr_t)p + 7 * JS_PAGE, (NPAGES - 7) * JS_PAGE,
			     cause, &count) != NULL;
	ktap_ok(ok && count == 4,
		"%s: four MUNMAP (%s): pages 1, 3, 5 exactly, then 7 to the last code page "
		"(%d MUNMAPs)",
		name, js_cause(cause), count);
	if (!ok || count != 4)
		js_dump(&r, getpid());
	js_free(&r);
}

/*
 * One measured call on a fresh region: with a session following this
 * process (its records checked) or without one (the hooks disarmed).
 */
static int measure(int fixed, int session, int check, struct run *out)
{
	uint8_t *p = many_vmas();
	int fd = -1, count;

	if (!p)
		return -1;
	if (session)
		fd = js_open_self(0, 0);
	count = check && !probe_add();
	*out = unmap_measured(p, fixed, count);
	if (count)
		probe_remove();
	if (session) {
		if (check && !out->err)
			check_records(fd, p, fixed ? JMMAP_UNMAP_MAP_FIXED : JMMAP_UNMAP_MUNMAP,
				      fixed ? "map_fixed_records" : "munmap_records");
		close(fd);
	}
	return 0;
}

int main(void)
{
	static const char *const names[2] = { "munmap", "map_fixed" };
	long long base[2] = { 0, 0 }, with[2] = { 0, 0 };
	pthread_t tick;
	struct utsname u;
	int fixed, rt, reps, i;

	ktap_begin();
	rt = !uname(&u) && strstr(u.version, "PREEMPT_RT");
	reps = rt ? REPS : 1;
	if (pin_cpu0())
		ktap_skip_all("cannot pin to CPU 0");
	if (pthread_create(&tick, NULL, ticker, NULL))
		ktap_skip_all("cannot start the wake-up thread");
	usleep(50000);
	if (!ticking)
		ktap_skip_all("cannot run a SCHED_FIFO thread on CPU 0");

	for (fixed = 0; fixed < 2; fixed++) {
		int failed = 0;

		for (i = 0; i < reps && !failed; i++) {
			struct run b, w;

			if (measure(fixed, 0, 0, &b) || measure(fixed, 1, i == 0, &w))
				ktap_skip_all("cannot make the vmas (vm.max_map_count?)");
			if (b.err || w.err) {
				ktap_ok(0, "%s_%lu_vmas: the call failed: %s", names[fixed],
					NPAGES, strerror(b.err ? b.err : w.err));
				failed = 1;
				break;
			}
			printf("# %s of %lu vmas: call %.1f ms without a session, %.1f ms with; "
			       "worst wake-up %.2f ms without, %.2f ms with\n",
			       names[fixed], NPAGES, b.call_ns / 1e6, w.call_ns / 1e6,
			       b.worst_ns / 1e6, w.worst_ns / 1e6);
			if (i == 0 && w.looked < 0)
				ktap_skip("no kprobe event on jmmap:exec_walk_add here",
					  "%s_walk_bounded", names[fixed]);
			else if (i == 0)
				ktap_ok(w.looked > 0 && w.looked <= LOOKED_MAX,
					"%s_walk_bounded: during %s of %lu vmas the hooks looked at "
					"%lld vmas one by one (1 to %d)",
					names[fixed], names[fixed], NPAGES, w.looked, LOOKED_MAX);
			if (!i || b.worst_ns < base[fixed])
				base[fixed] = b.worst_ns;
			if (!i || w.worst_ns < with[fixed])
				with[fixed] = w.worst_ns;
		}
		if (failed)
			continue;
		if (!rt) {
			ktap_skip("not PREEMPT_RT, the kernel's own unmapping is not preemptible",
				  "%s_latency", names[fixed]);
			continue;
		}
		ktap_ok(with[fixed] <= base[fixed] * 3 / 2 + LATE_SLACK_US * 1000LL,
			"%s_latency: during %s of %lu vmas a SCHED_FIFO thread on the same CPU "
			"woke at worst %.2f ms late with a session, %.2f ms without (the least "
			"of %d calls each; bound: 1.5 times that plus %.1f ms)",
			names[fixed], names[fixed], NPAGES, with[fixed] / 1e6, base[fixed] / 1e6,
			reps, LATE_SLACK_US / 1e3);
	}
	stop = 1;
	pthread_join(tick, NULL);
	return ktap_finish();
}
