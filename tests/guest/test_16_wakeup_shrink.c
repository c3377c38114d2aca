// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup_bytes is never left above half the ring, whatever order
 * concurrent JMMAP_IOC_CONFIG calls take: one thread grows a fresh session's
 * ring to the largest size (a long allocation, holding the session's
 * configuration), a second asks to shrink it to the smallest, and a third,
 * while both wait, sets wakeup_bytes to half the ring as it was (the
 * default 1 MiB). Whichever of the last two goes first, the session must
 * still wake its reader: once its ring is full of records nobody read,
 * poll() reports POLLIN. A wakeup_bytes checked against the size before
 * the shrink would leave it above the ring, and no reader would ever be
 * woken.
 */
#include <poll.h>
#include <pthread.h>
#include <time.h>

#include "jsession.h"

#define ROUNDS 4
#define BIG (64U << 20)
#define SMALL 8192U
#define WAKEUP (512U << 10)
#define BURST 200

struct config_call {
	pthread_t t;
	int fd;
	struct jmmap_config cfg;
	int err;
};

static void *config_fn(void *arg)
{
	struct config_call *c = arg;

	c->err = ioctl(c->fd, JMMAP_IOC_CONFIG, &c->cfg) ? errno : 0;
	return NULL;
}

static void start(struct config_call *c, int fd, uint64_t bytes, uint32_t wakeup)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->cfg.size = sizeof(c->cfg);
	c->cfg.buffer_bytes = bytes;
	c->cfg.wakeup_bytes = wakeup;
	if (pthread_create(&c->t, NULL, config_fn, c))
		c->err = -1;
}

static void pause_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

int main(void)
{
	static void *pages[BURST];
	int round, unwakeable = 0;

	ktap_begin();
	for (round = 0; round < ROUNDS; round++) {
		struct config_call grow, shrink, wake;
		struct jmmap_stats st = { .size = sizeof(st) };
		struct pollfd pfd;
		int fd = js_open(0, 0), i, pr;

		if (fd < 0)
			ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
		start(&grow, fd, BIG, 0);
		pause_ms(20);
		start(&shrink, fd, SMALL, 0);
		pause_ms(10);
		start(&wake, fd, 0, WAKEUP);
		pthread_join(grow.t, NULL);
		pthread_join(shrink.t, NULL);
		pthread_join(wake.t, NULL);

		if (js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
			ktap_ok(0, "round %d: follow this process: %s", round, strerror(errno));
			close(fd);
			continue;
		}
		for (i = 0; i < BURST; i++)
			pages[i] = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		pr = poll(&pfd, 1, 0);
		ioctl(fd, JMMAP_IOC_GET_STATS, &st);
		for (i = 0; i < BURST; i++)
			if (pages[i] != MAP_FAILED)
				munmap(pages[i], JS_PAGE);
		if (!(pr == 1 && (pfd.revents & POLLIN)))
			unwakeable++;
		ktap_diag("round %d: grow %s, shrink %s, wakeup_bytes %u %s; full ring (%llu MMAP3 "
			  "lost): poll %d, revents %#x", round, grow.err ? strerror(grow.err) : "ok",
			  shrink.err ? strerror(shrink.err) : "ok", WAKEUP,
			  wake.err ? strerror(wake.err) : "accepted",
			  (unsigned long long)st.lost[JMMAP_REC_MMAP3], pr, pfd.revents);
		close(fd);
	}
	ktap_ok(!unwakeable, "wakeup_never_above_ring: a full ring wakes its reader after racing "
		"CONFIGs, in %d of %d rounds", ROUNDS - unwakeable, ROUNDS);
	return ktap_finish();
}
