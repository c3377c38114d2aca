// SPDX-License-Identifier: GPL-2.0
/* jmmap session for the recorder; see jmmap-client.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fd-io.h"
#include "jmmap-reader.h"
#include "jmmap-client.h"

/* Wake the recorder once a quarter of the module's default ring is full. */
#define JMMAP_CLIENT_WAKEUP (256 * 1024)
/* Records kept in memory before they go to the spool file. */
#define JMMAP_CLIENT_SPOOL (1024 * 1024)
/* Room made for each read(). */
#define JMMAP_CLIENT_READ (64 * 1024)
/* The ring asked for: the module's default size, set so that it is known. */
#define JMMAP_CLIENT_RING (1024 * 1024)

/*
 * Map the ring where the module offers it: the records are then taken where
 * the module wrote them, with no system call and no copy in the kernel.
 * Where it cannot be mapped (an older module, a descriptor opened read-only)
 * read() does.
 */
static void map_ring(struct jmmap_client *s)
{
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	if (!(s->version.features & JMMAP_FEAT_MMAP_RING) || page <= 0)
		return;
	m = mmap(NULL, (size_t)page + JMMAP_CLIENT_RING, PROT_READ | PROT_WRITE, MAP_SHARED,
		 s->fd, 0);
	if (m == MAP_FAILED)
		return;
	s->ring = m;
	s->ring_len = (size_t)page + JMMAP_CLIENT_RING;
	s->ring_size = JMMAP_CLIENT_RING;
	s->ring_tail = __atomic_load_n(&s->ring->data_tail, __ATOMIC_ACQUIRE);
	if (s->ring->data_offset != (uint64_t)page || s->ring->data_size != s->ring_size) {
		munmap(m, s->ring_len);
		s->ring = NULL;
	}
}

int jmmap_client__open(const char *path, struct jmmap_client **out, char *reason, size_t reason_len)
{
	struct jmmap_client *s;
	int err;

	if (!path)
		path = "/dev/" JMMAP_DEVICE_NAME;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(reason, reason_len, "out of memory");
		return -ENOMEM;
	}
	s->spool_fd = -1;
	/* writable for the mapped ring's data_tail; read() needs no more than read-only */
	s->fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
		s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0) {
		err = -errno;
		if (err == -ENOENT || err == -ENXIO || err == -ENODEV)
			snprintf(reason, reason_len, "module not loaded (%s: %s)", path,
				 strerror(-err));
		else if (err == -EACCES || err == -EPERM)
			snprintf(reason, reason_len,
				 "no permission to open %s (needs CAP_PERFMON or CAP_SYS_ADMIN)",
				 path);
		else
			snprintf(reason, reason_len, "cannot open %s: %s", path, strerror(-err));
		goto out_free;
	}
	s->version.size = sizeof(s->version);
	if (ioctl(s->fd, JMMAP_IOC_VERSION, &s->version)) {
		err = -errno;
		snprintf(reason, reason_len, "version query on %s failed: %s", path,
			 strerror(-err));
		goto out_free;
	}
	s->version.module_version[sizeof(s->version.module_version) - 1] = '\0';
	if (s->version.abi_version != JMMAP_ABI_VERSION) {
		err = -EPROTO;
		snprintf(reason, reason_len, "ABI version mismatch (module %u, jrec %u)",
			 s->version.abi_version, JMMAP_ABI_VERSION);
		goto out_free;
	}
	if (!(s->version.features & JMMAP_FEAT_MMAP3)) {
		err = -EOPNOTSUPP;
		snprintf(reason, reason_len, "module does not emit MMAP3 records");
		goto out_free;
	}
	/*
	 * The recorder reads at every tick whether woken or not: a wake-up per
	 * record would only cost the traced program a context switch each.
	 */
	if (s->version.features & JMMAP_FEAT_WAKEUP_BYTES) {
		struct jmmap_config cfg = { .size = sizeof(cfg), .wakeup_bytes = JMMAP_CLIENT_WAKEUP };

		if (s->version.features & JMMAP_FEAT_MMAP_RING)
			cfg.buffer_bytes = JMMAP_CLIENT_RING;

		if (ioctl(s->fd, JMMAP_IOC_CONFIG, &cfg)) {
			err = -errno;
			snprintf(reason, reason_len, "configuring %s failed: %s", path,
				 strerror(-err));
			goto out_free;
		}
	}
	/*
	 * The memory the records are read into before they go to the spool:
	 * made and touched now, as perf's ring is, and not a page fault and a
	 * cleared page at a time while the workload runs.
	 */
	if (buf__reserve(&s->records, JMMAP_CLIENT_SPOOL + JMMAP_CLIENT_READ)) {
		err = -ENOMEM;
		snprintf(reason, reason_len, "out of memory");
		goto out_free;
	}
	memset(s->records.data, 0, JMMAP_CLIENT_SPOOL + JMMAP_CLIENT_READ);
	if (s->version.features & JMMAP_FEAT_WAKEUP_BYTES)
		map_ring(s);
	*out = s;
	return 0;
out_free:
	jmmap_client__free(s);
	return err;
}

int jmmap_client__add_target(struct jmmap_client *s, uint32_t pid, int system_wide, int snapshot)
{
	struct jmmap_target t;

	memset(&t, 0, sizeof(t));
	t.size = sizeof(t);
	t.pid = system_wide ? 0 : pid;
	t.flags = system_wide ? JMMAP_TARGET_SYSTEM_WIDE : 0;
	if (!snapshot)
		t.flags |= JMMAP_TARGET_NO_SNAPSHOT;
	if (ioctl(s->fd, JMMAP_IOC_ADD_TARGET, &t))
		return -errno;
	return 0;
}

int jmmap_client__spool_in(struct jmmap_client *s, const char *dir)
{
	if (s->spool_fd >= 0)
		return 0;
	s->spool_fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	return s->spool_fd < 0 ? -errno : 0;
}

/* The records in memory to the spool file, the split record to the front. */
static int spool(struct jmmap_client *s)
{
	struct buf *b = &s->records;
	int err;

	err = fd__write_all(s->spool_fd, b->data, b->len);
	if (err)
		return err;
	s->spooled += b->len;
	memmove(b->data, b->data + b->len, s->partial);
	b->len = 0;
	return 0;
}

/*
 * The bytes of the mapped ring, from this reader's tail to data_head,
 * appended to @b (jmmap_reader__copy_ring_raw(): the caller frames them, and
 * anything but whole records is -EINVAL). Then data_tail moves, and the
 * module may write there again. Bytes taken, or -EINVAL.
 */
static long take_ring(struct jmmap_client *s, struct buf *b)
{
	const uint8_t *data = (const uint8_t *)s->ring + s->ring->data_offset;
	uint64_t head = __atomic_load_n(&s->ring->data_head, __ATOMIC_ACQUIRE);
	long taken;
	int err;

	if (head - s->ring_tail > s->ring_size)
		return -EINVAL;
	err = buf__reserve(b, (size_t)(head - s->ring_tail));
	if (err)
		return err;
	taken = jmmap_reader__copy_ring_raw(data, s->ring_size, s->ring_tail, head,
					    b->data + b->len);
	if (taken < 0)
		return taken;
	s->ring_tail = head;
	__atomic_store_n(&s->ring->data_tail, head, __ATOMIC_RELEASE);
	return taken;
}

int jmmap_client__read(struct jmmap_client *s, struct jm_scan_mmap3 *each)
{
	struct buf *b = &s->records;
	size_t from, got = s->partial;
	long whole;
	int err;

	if (s->spool_fd >= 0 && b->len >= JMMAP_CLIENT_SPOOL) {
		err = spool(s);
		if (err)
			return err;
	}
	from = b->len;
	if (s->ring) {
		whole = take_ring(s, b);
		if (whole < 0)
			return (int)whole;
		got = (size_t)whole;
	}
	/* the module hands out whole records; read until it has no more */
	for (int i = 0; i < 64 && !s->ring; i++) {
		ssize_t n;

		err = buf__reserve(b, got + JMMAP_CLIENT_READ);
		if (err)
			return err;
		n = read(s->fd, b->data + from + got, b->cap - from - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	whole = jmmap_reader__scan(b->data + from, got, s->nr_by_type, &s->lost, each);
	if (whole < 0)
		return (int)whole;
	b->len += (size_t)whole;
	s->partial = got - (size_t)whole;
	s->nr_records = 0;
	for (int i = 0; i < JMMAP_REC_MAX; i++)
		s->nr_records += s->nr_by_type[i];
	/* the module hands out whole records: a ring's copy holds nothing else */
	if (s->ring && s->partial) {
		s->partial = 0;
		return -EINVAL;
	}
	return each ? each->err : 0;
}

int jmmap_client__append_records(struct jmmap_client *s, struct buf *b)
{
	int err;

	if (s->spooled > SIZE_MAX / 2)
		return -ENOMEM;
	err = buf__reserve(b, (size_t)s->spooled + s->records.len);
	if (!err && s->spooled)
		err = fd__pread_all(s->spool_fd, b->data + b->len, (size_t)s->spooled, 0);
	if (err)
		return err;
	b->len += (size_t)s->spooled;
	return buf__append(b, s->records.data, s->records.len);
}

int jmmap_client__sync_lost(struct jmmap_client *s)
{
	uint64_t emitted[JMMAP_REC_SLOTS], lost[JMMAP_REC_SLOTS], total = 0;
	struct jmmap_stats st;
	int i, err;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (ioctl(s->fd, JMMAP_IOC_GET_STATS, &st))
		return -errno;
	err = jmmap_reader__stats(&st, sizeof(st), emitted, lost);
	if (err)
		return err;
	for (i = 1; i < JMMAP_REC_SLOTS; i++)
		total += lost[i];
	if (total > s->lost)
		s->lost = total;
	return 0;
}

void jmmap_client__free(struct jmmap_client *s)
{
	if (!s)
		return;
	if (s->ring)
		munmap(s->ring, s->ring_len);
	if (s->fd >= 0)
		close(s->fd);
	if (s->spool_fd >= 0)
		close(s->spool_fd);
	buf__release(&s->records);
	free(s);
}
