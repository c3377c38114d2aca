// SPDX-License-Identifier: GPL-2.0
/*
 * perf-reader: header, attributes, ids and feature sections of a perf.data
 * file. Record decoding lives in perf-records.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd-io.h"
#include "jrec-sections.h"
#include "perf-reader-internal.h"
#include "byteorder.h"

#define PR_MAX_ATTRS 4096
#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15) /* perf-internal: build_id[20] is the length */
#endif
#define PR_MAX_IDS (1u << 22)

__attribute__((format(printf, 3, 4))) static void set_err(char *buf, size_t len,
							    const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

uint16_t perf_reader__u16(const struct perf_reader *r, const void *p)
{
	return bo_u16(p, r->swapped);
}

uint32_t perf_reader__u32(const struct perf_reader *r, const void *p)
{
	return bo_u32(p, r->swapped);
}

uint64_t perf_reader__u64(const struct perf_reader *r, const void *p)
{
	return bo_u64(p, r->swapped);
}

static uint64_t bitrev64(uint64_t v)
{
	uint64_t out = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (v & (1ULL << i))
			out |= 1ULL << (63 - i);
	return out;
}

/* Is [off, off+len) inside the buffer? */
bool pr_in_file(const struct perf_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->len && len <= r->len - off;
}

static unsigned int popcount64(uint64_t v)
{
	return (unsigned int)__builtin_popcountll(v);
}

static void attr_name(struct pr_attr *a)
{
	static const char *const hw[] = { "cycles", "instructions", "cache-references",
					  "cache-misses", "branches", "branch-misses",
					  "bus-cycles", "stalled-cycles-frontend",
					  "stalled-cycles-backend", "ref-cycles" };
	static const char *const sw[] = { "cpu-clock", "task-clock", "page-faults",
					  "context-switches", "cpu-migrations", "minor-faults",
					  "major-faults", "alignment-faults", "emulation-faults",
					  "dummy", "bpf-output", "cgroup-switches" };

	char mods[16];
	size_t n = 0;
	bool guest_default = false;

	/*
	 * perf's modifiers, for a file that names no event: the contexts
	 * counted when any is excluded, the precision, and host/guest when
	 * they differ from the default (guest excluded with u/k/h or p).
	 */
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mods[n++] = 'k';
		if (!a->exclude_user)
			mods[n++] = 'u';
		if (!a->exclude_hv)
			mods[n++] = 'h';
		guest_default = true;
	}
	if (a->precise_ip) {
		memcpy(mods + n, "ppp", a->precise_ip);
		n += a->precise_ip;
		guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mods[n++] = 'H';
		if (!a->exclude_guest)
			mods[n++] = 'G';
	}
	mods[n] = 0;
	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) / sizeof(hw[0]))
		snprintf(a->name, sizeof(a->name), "%s%s%s", hw[a->config], n ? ":" : "", mods);
	else if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw) / sizeof(sw[0]))
		snprintf(a->name, sizeof(a->name), "%s%s%s", sw[a->config], n ? ":" : "", mods);
	else
		snprintf(a->name, sizeof(a->name), "raw:%u:0x%llx", a->type,
			 (unsigned long long)a->config);
}

int pr_parse_attr(struct perf_reader *r, const uint8_t *p, uint64_t asz, struct pr_attr *a)
{
	uint64_t flags;
	uint32_t size = perf_reader__u32(r, p + 4);

	/* the attr as written may be shorter than ours: read only what is there */
	if (size < PERF_ATTR_SIZE_VER0 || size > asz)
		return -EBADMSG;
	memset(a, 0, sizeof(*a));
	a->type = perf_reader__u32(r, p);
	a->config = perf_reader__u64(r, p + 8);
	a->sample_period = perf_reader__u64(r, p + 16);
	a->sample_type = perf_reader__u64(r, p + 24);
	a->read_format = perf_reader__u64(r, p + 32);
	flags = perf_reader__u64(r, p + 40);
	if (r->swapped)
		flags = bitrev64(flags); /* bitfields are allocated from the other end */
	a->exclude_user = flags & (1ULL << 4);
	a->exclude_kernel = flags & (1ULL << 5);
	a->exclude_hv = flags & (1ULL << 6);
	a->exclude_idle = flags & (1ULL << 7);
	a->precise_ip = (uint8_t)(flags >> 15 & 3);
	a->exclude_host = flags & (1ULL << 19);
	a->exclude_guest = flags & (1ULL << 20);
	a->freq = flags & (1ULL << 10);
	a->sample_id_all = flags & (1ULL << 18);
	a->use_clockid = flags & (1ULL << 25);
	if (size >= PERF_ATTR_SIZE_VER2)
		a->branch_sample_type = perf_reader__u64(r, p + 72);
	if (size >= PERF_ATTR_SIZE_VER3) {
		a->sample_regs_user = perf_reader__u64(r, p + 80);
		a->clockid = perf_reader__u32(r, p + 92);
	}
	if (size >= PERF_ATTR_SIZE_VER4)
		a->sample_regs_intr = perf_reader__u64(r, p + 96);
	a->id_sample_size = 0;
	if (a->sample_id_all) {
		const uint64_t bits = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				      PERF_SAMPLE_IDENTIFIER;
		a->id_sample_size = (uint16_t)(8 * popcount64(a->sample_type & bits));
	}
	attr_name(a);
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	const struct pr_id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int read_attrs(struct perf_reader *r, char *errbuf, size_t errlen)
{
	uint64_t asz = r->hdr_attr_size, off = r->attrs.offset, n, i, nids = 0, k;
	uint64_t ents;

	if (asz < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) || asz > 4096) {
		set_err(errbuf, errlen, "corrupt header: attribute size %llu",
			(unsigned long long)asz);
		return -EBADMSG;
	}
	if (!pr_in_file(r, off, r->attrs.size) || r->attrs.size % asz) {
		set_err(errbuf, errlen, "corrupt header: attribute section out of the file");
		return -EBADMSG;
	}
	n = r->attrs.size / asz;
	if (n == 0 || n > PR_MAX_ATTRS) {
		set_err(errbuf, errlen, "corrupt header: %llu attributes", (unsigned long long)n);
		return -EBADMSG;
	}
	r->attrs_v = calloc(n, sizeof(*r->attrs_v));
	if (!r->attrs_v)
		return -ENOMEM;
	r->nr_attrs = n;
	for (i = 0; i < n; i++) {
		const uint8_t *p = r->buf + off + i * asz;
		uint64_t ids_off = perf_reader__u64(r, p + asz - 16);
		uint64_t ids_size = perf_reader__u64(r, p + asz - 8);

		if (pr_parse_attr(r, p, asz - 16, &r->attrs_v[i])) {
			set_err(errbuf, errlen, "corrupt attribute %llu", (unsigned long long)i);
			return -EBADMSG;
		}
		if (!pr_in_file(r, ids_off, ids_size) || ids_size % 8 ||
		    ids_size / 8 > PR_MAX_IDS - nids) {
			set_err(errbuf, errlen, "corrupt attribute %llu: id array out of the file",
				(unsigned long long)i);
			return -EBADMSG;
		}
		nids += ids_size / 8;
	}
	r->ids = calloc(nids ? nids : 1, sizeof(*r->ids));
	if (!r->ids)
		return -ENOMEM;
	for (i = 0, ents = 0; i < n; i++) {
		const uint8_t *p = r->buf + off + i * asz;
		uint64_t ids_off = perf_reader__u64(r, p + asz - 16);
		uint64_t ids_size = perf_reader__u64(r, p + asz - 8);

		for (k = 0; k < ids_size / 8; k++) {
			r->ids[ents].id = perf_reader__u64(r, r->buf + ids_off + k * 8);
			r->ids[ents].attr = &r->attrs_v[i];
			ents++;
		}
	}
	r->nr_ids = ents;
	pr_sort_ids(r);
	return 0;
}

void pr_sort_ids(struct perf_reader *r)
{
	if (r->nr_ids)
		qsort(r->ids, r->nr_ids, sizeof(*r->ids), id_cmp);
}

/*
 * Feature @id at @offset, @size bytes: out of the file, the file was cut
 * inside its sections; a compressed private section is read in its plain
 * form, and one that is corrupt is taken as absent.
 */
int pr_take_feature(struct perf_reader *r, unsigned int id, uint64_t offset, uint64_t size)
{
	int err;

	r->feat[id].offset = 0, r->feat[id].size = 0;
	buf__release(&r->unpacked[id]);
	if (!pr_in_file(r, offset, size)) {
		if (r->cut == PR_CUT_NONE)
			r->cut = PR_CUT_SHORT_FEATURES;
		return 0;
	}
	r->feat[id].offset = offset, r->feat[id].size = size;
	if (id < JREC_FEAT_FIRST)
		return 0;
	err = jrec_section__decompress(r->buf + offset, size, r->swapped, id, &r->unpacked[id]);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		r->feat[id].offset = 0, r->feat[id].size = 0;
	return 0;
}

static int take_private(unsigned int id, uint64_t offset, uint64_t size, void *ctx)
{
	return pr_take_feature(ctx, id, offset, size);
}

/*
 * perf's features from the bitmap and the table after the data section
 * (older jrec recordings have their private ones there too), then jrec's
 * from the table that event_types points at.
 */
static int read_features(struct perf_reader *r)
{
	uint64_t table = r->data.offset + r->data.size;
	unsigned int bit, idx = 0;
	int err;

	for (bit = 0; bit < PERF_FILE_FEAT_BITS; bit++) {
		const uint8_t *e;

		if (!(r->features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (!pr_in_file(r, table + (uint64_t)idx * 16, 16)) {
			/* table cut off: no (more) features */
			if (r->cut == PR_CUT_NONE)
				r->cut = PR_CUT_SHORT_FEATURES;
			return 0;
		}
		e = r->buf + table + (uint64_t)idx * 16;
		err = pr_take_feature(r, bit, perf_reader__u64(r, e), perf_reader__u64(r, e + 8));
		if (err)
			return err;
		idx++;
	}
	if (!r->private.size)
		return 0;
	if (!pr_in_file(r, r->private.offset, r->private.size)) {
		if (r->cut == PR_CUT_NONE)
			r->cut = PR_CUT_SHORT_FEATURES;
		return 0;
	}
	err = jrec_section_table__walk(r->buf + r->private.offset, r->private.size, r->swapped,
				       take_private, r);
	return err == -EBADMSG ? 0 : err; /* a bad entry ends the table */
}

/*
 * perf's EVENT_DESC section: each event's name as it was asked for
 * ("cycles:u", a tracepoint's "sched:sched_switch"), in the order of the
 * attrs section. As perf does, an entry names the event its first sample id
 * belongs to, whatever its copy of the attr says; an entry without ids names
 * the attr in its place when it is that attr (type and config). Anything
 * malformed ends the walk.
 */
void pr_read_event_names(struct perf_reader *r)
{
	const uint8_t *p = r->buf + r->feat[PERF_FEAT_EVENT_DESC].offset;
	uint64_t len = r->feat[PERF_FEAT_EVENT_DESC].size, off = 8;
	uint32_t nr, asz, i;

	if (len < 8)
		return;
	nr = perf_reader__u32(r, p);
	asz = perf_reader__u32(r, p + 4);
	if (asz < 16)
		return;
	for (i = 0; i < nr; i++) {
		struct pr_attr *a = i < r->nr_attrs ? &r->attrs_v[i] : NULL;
		uint32_t type, nids, slen;
		uint64_t config;
		const char *name;

		if (asz > len - off || len - off - asz < 8)
			return;
		type = perf_reader__u32(r, p + off);
		config = perf_reader__u64(r, p + off + 8);
		off += asz;
		nids = perf_reader__u32(r, p + off);
		slen = perf_reader__u32(r, p + off + 4);
		off += 8;
		if (slen > len - off || (uint64_t)nids * 8 > len - off - slen)
			return;
		name = (const char *)p + off;
		if (nids) {
			const struct pr_attr *by_id =
				pr_attr_by_id(r, perf_reader__u64(r, p + off + slen));

			a = by_id ? &r->attrs_v[by_id - r->attrs_v] : NULL;
		} else if (a && (type != a->type || config != a->config)) {
			a = NULL;
		}
		if (a && slen && name[0] && memchr(name, 0, slen))
			snprintf(a->name, sizeof(a->name), "%s", name);
		off += slen + (uint64_t)nids * 8;
	}
}

/*
 * perf's GROUP_DESC section: u32 count, then per group its name (u32
 * length, the string padded), the leader's index and the number of
 * members, which follow the leader in the attrs section. A group that does
 * not fit the attrs, or anything malformed, ends the walk.
 */
void pr_read_groups(struct perf_reader *r)
{
	const uint8_t *p = r->buf + r->feat[PERF_FEAT_GROUP_DESC].offset;
	uint64_t len = r->feat[PERF_FEAT_GROUP_DESC].size, off = 4;
	uint32_t nr, g, i;

	for (i = 0; i < r->nr_attrs; i++)
		r->attrs_v[i].group_leader = SIZE_MAX;
	if (len < 4)
		return;
	nr = perf_reader__u32(r, p);
	for (g = 0; g < nr; g++) {
		uint32_t slen, leader, members;
		const char *name;

		if (len - off < 4)
			return;
		slen = perf_reader__u32(r, p + off);
		off += 4;
		if (slen > len - off || len - off - slen < 8)
			return;
		name = (const char *)p + off;
		off += slen;
		leader = perf_reader__u32(r, p + off);
		members = perf_reader__u32(r, p + off + 4);
		off += 8;
		if (!members || leader >= r->nr_attrs || members > r->nr_attrs - leader)
			return;
		for (i = leader; i < leader + members; i++)
			if (r->attrs_v[i].group_leader != SIZE_MAX)
				return; /* in two groups */
		for (i = leader; i < leader + members; i++)
			r->attrs_v[i].group_leader = leader;
		r->attrs_v[leader].group_members = members;
		/* perf's name of a group that has none */
		if (slen && memchr(name, 0, slen) && strcmp(name, "{anon_group}"))
			snprintf(r->attrs_v[leader].group_name,
				 sizeof(r->attrs_v[leader].group_name), "%s", name);
	}
}

static int setup(struct perf_reader *r, char *errbuf, size_t errlen)
{
	uint64_t magic, hsize;
	const uint8_t *h = r->buf;
	int i, err;

	if (r->len < 16) {
		set_err(errbuf, errlen, "not a perf.data recording (file too short)");
		return -EINVAL;
	}
	memcpy(&magic, h, 8);
	if (magic == PERF_FILE_MAGIC)
		r->swapped = false;
	else if (magic == PERF_FILE_MAGIC_SWAPPED)
		r->swapped = true;
	else if (!memcmp(h, "PERFFILE", 8)) {
		set_err(errbuf, errlen, "perf.data version 1 files are not supported");
		return -EINVAL;
	} else {
		set_err(errbuf, errlen, "not a perf.data recording (bad magic)");
		return -EINVAL;
	}
	hsize = perf_reader__u64(r, h + 8);
	if (hsize == 16) /* pipe mode: the rest is records */
		return pr_setup_pipe(r, errbuf, errlen);
	if (hsize < sizeof(struct perf_file_header) || !pr_in_file(r, 0, hsize)) {
		set_err(errbuf, errlen, "corrupt or cut-short header (%zu bytes of file)", r->len);
		return -EBADMSG;
	}
	r->hdr_attr_size = perf_reader__u64(r, h + 16);
	r->attrs.offset = perf_reader__u64(r, h + 24);
	r->attrs.size = perf_reader__u64(r, h + 32);
	r->data.offset = perf_reader__u64(r, h + 40);
	r->data.size = perf_reader__u64(r, h + 48);
	r->private.offset = perf_reader__u64(r, h + 56);
	r->private.size = perf_reader__u64(r, h + 64);
	for (i = 0; i < 4; i++)
		r->features[i] = perf_reader__u64(r, h + 72 + 8 * i);

	if (r->data.offset > r->len || r->data.offset < hsize) {
		set_err(errbuf, errlen, "corrupt header: data section at %llu of %zu bytes",
			(unsigned long long)r->data.offset, r->len);
		return -EBADMSG;
	}
	err = read_attrs(r, errbuf, errlen);
	if (err)
		return err;
	if (r->data.size == 0) {
		r->cut = PR_CUT_NO_DATA_SIZE;
		r->data.size = r->len - r->data.offset;
		memset(r->features, 0, sizeof(r->features));
		r->private.size = 0;
	} else if (!pr_in_file(r, r->data.offset, r->data.size)) {
		r->cut = PR_CUT_SHORT_FILE;
		r->data.size = r->len - r->data.offset;
		memset(r->features, 0, sizeof(r->features));
		r->private.size = 0;
	}
	/* every finalised recording has feature sections (perf's and jrec's alike) */
	if (r->cut == PR_CUT_NONE && !(r->features[0] | r->features[1] | r->features[2] |
				      r->features[3]))
		r->cut = PR_CUT_NO_FEATURES;
	err = read_features(r);
	if (!err) {
		pr_read_event_names(r);
		pr_read_groups(r);
	}
	return err;
}

static int open_common(struct perf_reader *r, struct perf_reader **out, char *errbuf,
		       size_t errlen)
{
	int err = setup(r, errbuf, errlen);

	if (err) {
		perf_reader__close(r);
		return err;
	}
	*out = r;
	return 0;
}

int perf_reader__open_mem(const void *buf, size_t len, struct perf_reader **out, char *errbuf,
			  size_t errlen)
{
	struct perf_reader *r;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->buf = buf;
	r->len = len;
	r->fd = -1;
	return open_common(r, out, errbuf, errlen);
}

int perf_reader__open(const char *path, struct perf_reader **out, char *errbuf, size_t errlen)
{
	struct perf_reader *r;
	struct stat st;
	int fd, err;

	*out = NULL;
	if (!strcmp(path, "-")) {
		/*
		 * standard input: a file as it is; a pipe (perf record -o - |)
		 * copied to an unlinked file in $TMPDIR first, since the
		 * report reads the data more than once
		 */
		path = "standard input";
		if (!fstat(0, &st) && S_ISREG(st.st_mode))
			fd = fcntl(0, F_DUPFD_CLOEXEC, 0);
		else if ((fd = fd__spool(0, getenv("TMPDIR"))) < 0)
			errno = -fd, fd = -1;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		err = -errno;
		set_err(errbuf, errlen, "cannot open %s: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		set_err(errbuf, errlen, "cannot stat %s: %s", path, strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		set_err(errbuf, errlen, "%s is not a regular file", path);
		goto out_close;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		err = -ENOMEM;
		goto out_close;
	}
	r->len = (size_t)st.st_size;
	if (r->len) {
		void *m = mmap(NULL, r->len, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			err = -errno;
			set_err(errbuf, errlen, "cannot map %s: %s", path, strerror(errno));
			free(r);
			goto out_close;
		}
		r->buf = m;
		r->mapped = true;
	}
	r->fd = fd; /* the data section is streamed from it */
	err = open_common(r, out, errbuf, errlen);
	if (err && errbuf && errlen && errbuf[0]) {
		/* what is wrong with the contents, said of the file: "PATH: reason" */
		char *why = strdup(errbuf);

		if (why)
			set_err(errbuf, errlen, "%s: %s", path, why);
		free(why);
	}
	return err;
out_close:
	close(fd);
	return err;
}

void perf_reader__close(struct perf_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++)
		buf__release(&r->unpacked[i]);
	if (r->mapped)
		munmap((void *)r->buf, r->len);
	if (r->fd >= 0)
		close(r->fd);
	big_free(r->stream_buf, STREAM_BUF);
	free(r->attrs_v);
	free(r->ids);
	free(r);
}

bool perf_reader__swapped(const struct perf_reader *r)
{
	return r->swapped;
}

enum pr_cut perf_reader__cut_short(const struct perf_reader *r)
{
	return r->cut;
}

const char *pr_cut_str(enum pr_cut cut)
{
	switch (cut) {
	case PR_CUT_NONE:
		return "complete";
	case PR_CUT_NO_DATA_SIZE:
		return "the recorder never finished the file (data size 0)";
	case PR_CUT_SHORT_FILE:
		return "the file ends inside its data section";
	case PR_CUT_BAD_RECORD:
		return "a record with an impossible size ends the readable data";
	case PR_CUT_NO_FEATURES:
		return "the recorder never finalised the file (no feature sections)";
	case PR_CUT_SHORT_FEATURES:
		return "the file ends inside its feature sections (build-ids, symbols, JIT copies lost)";
	}
	return "?";
}

uint64_t perf_reader__nr_bad(const struct perf_reader *r)
{
	return r->nr_bad;
}

size_t perf_reader__nr_attrs(const struct perf_reader *r)
{
	return r->nr_attrs;
}

const struct pr_attr *perf_reader__attr(const struct perf_reader *r, size_t i)
{
	return i < r->nr_attrs ? &r->attrs_v[i] : NULL;
}

uint64_t perf_reader__data_size(const struct perf_reader *r)
{
	return r->data.size;
}

uint64_t perf_reader__data_offset(const struct perf_reader *r)
{
	return r->data.offset;
}

const struct pr_attr *perf_reader__attr_by_id(const struct perf_reader *r, uint64_t id)
{
	return pr_attr_by_id(r, id);
}

const struct pr_attr *pr_attr_by_id(const struct perf_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nr_ids;

	if (r->nr_attrs == 1)
		return &r->attrs_v[0];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id == id)
			return r->ids[mid].attr;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int perf_reader__feature(const struct perf_reader *r, unsigned int feat, const void **data,
			 size_t *len)
{
	if (feat >= PERF_FILE_FEAT_BITS || !r->feat[feat].size)
		return -ENOENT;
	if (r->unpacked[feat].data) {
		*data = r->unpacked[feat].data;
		*len = r->unpacked[feat].len;
		return 0;
	}
	*data = r->buf + r->feat[feat].offset;
	*len = r->feat[feat].size;
	return 0;
}

const char *perf_reader__feature_string(const struct perf_reader *r, unsigned int feat, char *buf,
					size_t len)
{
	const uint8_t *p;
	size_t flen;
	uint32_t slen;

	if (perf_reader__feature(r, feat, (const void **)&p, &flen) || flen < 4 || !len)
		return NULL;
	slen = perf_reader__u32(r, p);
	if (slen > flen - 4)
		slen = (uint32_t)(flen - 4);
	slen = (uint32_t)strnlen((const char *)p + 4, slen);
	if (slen >= len)
		slen = (uint32_t)len - 1;
	memcpy(buf, p + 4, slen);
	buf[slen] = 0;
	return buf;
}

int perf_reader__for_each_build_id(const struct perf_reader *r, pr_build_id_fn fn, void *ctx)
{
	const uint8_t *p;
	size_t len, off = 0;
	int err;

	if (perf_reader__feature(r, PERF_FEAT_BUILD_ID, (const void **)&p, &len))
		return 0;
	while (len - off >= sizeof(struct perf_file_build_id)) {
		uint16_t misc = perf_reader__u16(r, p + off + 4);
		uint16_t size = perf_reader__u16(r, p + off + 6);
		int32_t pid = (int32_t)perf_reader__u32(r, p + off + 8);
		const uint8_t *id = p + off + 12;
		size_t idlen = 20, namemax;
		const char *name = (const char *)p + off + sizeof(struct perf_file_build_id);

		if (size < sizeof(struct perf_file_build_id) || size > len - off)
			return -EBADMSG;
		if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
			idlen = id[20] <= 20 ? id[20] : 20;
		namemax = size - sizeof(struct perf_file_build_id);
		if (strnlen(name, namemax) < namemax) {
			err = fn(pid, misc, id, idlen, name, ctx);
			if (err)
				return err;
		}
		off += size;
	}
	return 0;
}

int perf_reader__jrec_feature(const struct perf_reader *r, unsigned int feat, const void **data,
			      size_t *len)
{
	const void *p;
	size_t flen;

	if (perf_reader__feature(r, feat, &p, &flen))
		return -ENOENT;
	return jrec_section__payload(p, flen, r->swapped, feat, data, len);
}
