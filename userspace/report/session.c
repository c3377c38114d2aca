// SPDX-License-Identifier: GPL-2.0
/*
 * session: open a recording and read everything but the samples (pass 1),
 * in order: the BUILD_ID feature and jrec's private sections (INFO, SYMTAB,
 * ARCHIVE, FILES, JITDUMP, PERFMAP, JMMAP, decoded by jrec-sections.c and
 * jmmap-reader.c), then the kernel's mapping and task records. Each record
 * is dispatched once: mappings to the address spaces, forks, execs and names
 * to the process history (which the address spaces and the JIT symbols
 * subscribe to). Files of this machine are read in machine-files.c, kernel
 * symbols loaded in kernel-symbols.c, samples resolved in resolve.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "elf-image.h"
#include "jmmap-reader.h"
#include "jrec-sections.h"
#include "map-names.h"
#include "session.h"

int session__open(struct session *s, const char *path, char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->first_time = UINT64_MAX;
	s->cookies.strings = &s->strings;
	proc_history__init(&s->procs, &s->strings);
	ret = addrspace__subscribe(&s->as, &s->procs);
	if (!ret)
		ret = jit_symbols__subscribe(&s->jit, &s->procs);
	if (!ret)
		ret = dso_set__init(&s->dsos);
	if (ret)
		return ret;
	ret = perf_reader__open(path, &s->r, err, errlen);
	if (ret) {
		dso_set__release(&s->dsos);
		return ret;
	}
	return 0;
}

int session__jmmap_walk(struct session *s, jm_event_fn fn, void *ctx)
{
	const void *p;
	size_t len;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_JMMAP, &p, &len))
		return 0;
	return jmmap_reader__walk(p, len, perf_reader__swapped(s->r), fn, ctx);
}

const char *session__comm(struct session *s, uint32_t tid, uint32_t pid, uint64_t time)
{
	return proc_history__comm_at(&s->procs, tid, time);
}

const char *session__comm_seen(struct session *s, uint32_t tid, uint64_t time)
{
	return proc_history__comm_seen(&s->procs, tid, time);
}

/* The dso of a mapped file; @c the record's cookie, or none. */
static struct dso *file_dso(struct session *s, uint32_t pid, const char *path,
			    const struct jrec_cookie *c)
{
	const struct jrec_cookie *known;

	/* the record carried none: the recording may know it */
	if (!c->len && (known = file_cookies__find(&s->cookies, pid, path)))
		c = known;
	return dso_set__get(&s->dsos, path, c);
}

/* The kernel's own MMAP: its reference symbol address travels as pgoff. */
static void kernel_mmap(struct session *s, const struct pr_mmap *mm)
{
	if (strncmp(mm->filename, "[kernel.kallsyms]", 17))
		return;
	if (!s->kernel_text)
		s->kernel_text = mm->pgoff;
	/* perf record --buildid-mmap: the kernel's build-id rides on its MMAP2 */
	if (mm->build_id_size && mm->build_id_size <= sizeof(s->kernel_bid.bytes) &&
	    !s->kernel_bid.len && !s->ksyms_loading) {
		s->kernel_bid.kind = JMMAP_COOKIE_ELF_BUILD_ID;
		s->kernel_bid.len = mm->build_id_size;
		memcpy(s->kernel_bid.bytes, mm->build_id, mm->build_id_size);
	}
}

static int on_mmap(struct session *s, const struct pr_event *ev)
{
	const struct pr_mmap *mm = &ev->mmap;
	const struct as_proc *p;
	struct as_map m = {0};
	struct jrec_cookie c = {0};
	bool data;

	s->nr_mmap_events++;
	if (mm->pid == UINT32_MAX) {
		kernel_mmap(s, mm);
		return 0;
	}
	data = (ev->misc & PERF_RECORD_MISC_MMAP_DATA) || (mm->is_mmap2 && !(mm->prot & 4));
	if (data && !s->data_maps)
		return 0;
	/* the MMAP3 it was written from stands for it (jrec-data.rst) */
	if (s->skip_traced_mmaps && (p = addrspace__proc(&s->as, mm->pid)) && p->jmmap_traced)
		return 0;
	m.start = mm->start;
	m.end = mm->start + mm->len < mm->start ? UINT64_MAX : mm->start + mm->len;
	m.pgoff = mm->pgoff;
	m.prot = mm->prot;
	if (!map_name__is_anon(mm->filename)) {
		if (mm->build_id_size) {
			c.kind = JMMAP_COOKIE_ELF_BUILD_ID;
			c.len = mm->build_id_size;
			memcpy(c.bytes, mm->build_id, c.len);
		}
		m.dso = file_dso(s, mm->pid, mm->filename, &c);
		if (!m.dso)
			return -ENOMEM;
		if (!data)
			session__machine_jitdump(s, mm->pid, mm->filename);
	} else if (data && !(m.name = strpool__str(&s->strings, mm->filename))) {
		return -ENOMEM;
	}
	return addrspace__add_map(data ? &s->data_as : &s->as, mm->pid, session__time(ev), &m, false,
				  false);
}

static int pass1(const struct pr_event *ev, void *ctx)
{
	struct session *s = ctx;
	uint64_t t = session__time(ev);
	int err;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		/* only kernel-mode samples come here (perf_reader__skip_samples), unless asked */
		if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
			session__kernel_prefetch(s);
		if (s->pass1_sample && (err = s->pass1_sample(ev, t, s->pass1_ctx)))
			return err;
		s->nr_samples++;
		if (ev->id.has_time) {
			if (t < s->first_time)
				s->first_time = t;
			if (t > s->last_time)
				s->last_time = t;
		}
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(s, ev);
	case PERF_RECORD_COMM:
		err = proc_history__comm(&s->procs, ev->comm.pid, ev->comm.tid, t, ev->comm.comm,
					 strlen(ev->comm.comm));
		if (!err && ev->comm.exec && ev->comm.pid == ev->comm.tid)
			err = proc_history__exec(&s->procs, ev->comm.pid, t, false);
		return err;
	case PERF_RECORD_FORK:
		/* the record's own time, on the clock the other records use */
		if (ev->id.has_time && ev->task.time)
			t = ev->task.time;
		return proc_history__fork(&s->procs, ev->task.pid, ev->task.ppid, ev->task.tid,
					  ev->task.ptid, t, ev->task.pid == ev->task.ppid);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		s->nr_lost += ev->lost.lost;
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* the thread is the sample_id's: the one leaving, or the one coming in */
		if (!ev->id.has_time)
			return 0;
		return ctx_switches__add(&s->switches, ev->id.tid, t,
					 !(ev->misc & PERF_RECORD_MISC_SWITCH_OUT) ? CTX_SWITCH_IN
					 : ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
					     ? CTX_SWITCH_OUT_PREEMPT
					     : CTX_SWITCH_OUT);
	default:
		return 0;
	}
}

static int on_jmmap(const struct jm_event *e, void *ctx)
{
	struct session *s = ctx;
	struct as_map m = {0};
	struct jrec_cookie c = {0};
	int err;

	switch (e->type) {
	case JMMAP_REC_MMAP3:
		if (!(e->prot & 4))
			return addrspace__set_jmmap(&s->as, e->pid);
		m.start = e->start;
		m.end = e->start + e->len < e->start ? UINT64_MAX : e->start + e->len;
		m.pgoff = e->pgoff;
		m.prot = e->prot;
		if (e->filename[0] && !map_name__is_anon(e->filename)) {
			c.kind = e->cookie_kind;
			c.len = e->cookie_kind ? e->cookie_len : 0;
			memcpy(c.bytes, e->cookie, c.len);
			/* the module could not read the file; the recorder may have */
			m.dso = file_dso(s, e->pid, e->filename, &c);
			if (!m.dso)
				return -ENOMEM;
			session__machine_jitdump(s, e->pid, e->filename);
		}
		return addrspace__add_map(&s->as, e->pid, e->time, &m, true,
					  e->cause == JMMAP_CAUSE_EXEC);
	case JMMAP_REC_MUNMAP:
		err = addrspace__add_unmap(&s->as, e->pid, e->time, e->start, e->len);
		if (!err)
			err = jit_symbols__unmap(&s->jit, e->pid, e->time, e->start, e->len);
		return err;
	case JMMAP_REC_EXEC:
		err = proc_history__exec(&s->procs, e->pid, e->time, true);
		if (!err && e->comm[0])
			err = proc_history__comm(&s->procs, e->pid, e->tid, e->time, e->comm,
						 strlen(e->comm));
		return err;
	case JMMAP_REC_FORK:
		return proc_history__fork(&s->procs, e->pid, e->ppid, e->tid, e->ptid, e->time,
					  e->flags & JMMAP_FORK_THREAD);
	default:
		return 0;
	}
}

static void read_info(struct session *s)
{
	struct jrec_info info;
	const char *p;
	size_t len;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_INFO, (const void **)&p, &len))
		return;
	s->is_jrec = true;
	jrec_info__parse(p, len, &info);
	if (info.mode[0])
		snprintf(s->mode, sizeof(s->mode), "%s", info.mode);
	if (info.has_perfmap_poll)
		s->jit.perfmap_slack = 2 * info.perfmap_poll_ns;
	if (info.kernel_text)
		s->kernel_text = info.kernel_text;
	s->skip_traced_mmaps = info.mmap_records_jmmap; /* unless JMMAP is unreadable */
	if (info.kernel_release[0])
		snprintf(s->kernel_release, sizeof(s->kernel_release), "%s", info.kernel_release);
	if (info.has_kernel_bid)
		s->kernel_bid = info.kernel_bid;
}

static int on_build_id(int32_t pid, uint16_t misc, const uint8_t *id, size_t id_len,
		       const char *filename, void *ctx)
{
	struct session *s = ctx;
	int err = file_cookies__add_build_id(&s->cookies, filename, id, id_len);

	if (!err && !strcmp(filename, "[kernel.kallsyms]") && !s->kernel_bid.len)
		s->kernel_bid = s->cookies.bids[s->cookies.nr_bids - 1].cookie;
	return err;
}

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	return file_cookies__add_file(ctx, f);
}

static int on_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	struct session *s = ctx;
	bool trunc;
	int err = jit_symbols__add_jitdump(&s->jit, j->pid, j->data, j->len, &trunc);

	if (err && err != -EINVAL)
		return err;
	if (trunc)
		s->jitdump_truncated++;
	return 0;
}

static int on_perfmap_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	struct session *s = ctx;

	return jit_symbols__add_perfmap(&s->jit, l->pid, l->time, l->line, l->len);
}

/* The code bytes the recorder and jrec archive stored; a corrupt entry ends its section. */
static int read_code(struct session *s, bool swapped)
{
	static const unsigned int ids[] = { JREC_FEAT_CODE, JREC_FEAT_ARCHIVE_CODE };
	const void *p;
	size_t len, i;
	int err;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (perf_reader__jrec_feature(s->r, ids[i], &p, &len))
			continue;
		err = code_table__add(&s->code, p, len, swapped);
		if (err && err != -EBADMSG)
			return err;
	}
	return 0;
}

/*
 * jrec's sections but INFO. A corrupt one is left out, or used up to the
 * first bad entry: the files it names keep what their records say.
 */
static int read_sections(struct session *s)
{
	bool swapped = perf_reader__swapped(s->r);
	const void *p;
	size_t len;
	int err = 0;

	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_SYMTAB, &p, &len) &&
	    !stored_syms__parse(&s->stored, p, len, swapped))
		s->dsos.stored = &s->stored;
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_ARCHIVE, &p, &len) &&
	    !archive_syms__parse(&s->archive, p, len, swapped))
		s->dsos.archive = &s->archive;
	if (s->want_code) {
		err = read_code(s, swapped);
		if (err)
			return err;
	}
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_FILES, &p, &len))
		err = jrec_files__walk(p, len, swapped, on_file, &s->cookies);
	if (err == -EBADMSG)
		file_cookies__drop_files(&s->cookies);
	else if (err)
		return err;
	file_cookies__finish(&s->cookies);
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_JITDUMP, &p, &len)) {
		err = jrec_jitdumps__walk(p, len, swapped, on_jitdump, s);
		if (err && err != -EBADMSG)
			return err;
	}
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_PERFMAP, &p, &len)) {
		err = jrec_perfmaps__walk(p, len, swapped, on_perfmap_line, s);
		if (err && err != -EBADMSG)
			return err;
	}
	/* jrec top's copies, in this machine's byte order */
	err = s->side_jitdumps_len ? jrec_jitdumps__walk(s->side_jitdumps, s->side_jitdumps_len,
							false, on_jitdump, s) : 0;
	if (!err && s->side_perfmaps_len)
		err = jrec_perfmaps__walk(s->side_perfmaps, s->side_perfmaps_len, false,
					  on_perfmap_line, s);
	if (err && err != -EBADMSG)
		return err;
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_JMMAP, &p, &len)) {
		err = jmmap_reader__walk(p, len, swapped, on_jmmap, s);
		if (err == -EBADMSG)
			s->jmmap_bad = true;
		else if (err)
			return err;
	} else {
		s->skip_traced_mmaps = false;
	}
	if (s->jmmap_bad)
		s->skip_traced_mmaps = false;
	return 0;
}

/* What the attributes and the standard features say. */
static void read_header(struct session *s)
{
	size_t i, na = perf_reader__nr_attrs(s->r);

	s->monotonic = true;
	for (i = 0; i < na; i++) {
		const struct pr_attr *a = perf_reader__attr(s->r, i);

		if (!a->use_clockid || a->clockid != 1 /* CLOCK_MONOTONIC */)
			s->monotonic = false;
		if (resolve__names_data_addr(a))
			s->data_maps = true;
	}
	/* without a common clock, JIT load times cannot be compared with samples */
	s->jit.ignore_time = !s->monotonic;
	perf_reader__feature_string(s->r, PERF_FEAT_OSRELEASE, s->kernel_release,
				    sizeof(s->kernel_release));
}

int session__load(struct session *s)
{
	struct utsname u;
	int err;

	read_header(s);
	if (s->data_maps) {
		err = addrspace__subscribe(&s->data_as, &s->procs);
		if (err)
			return err;
	}
	err = perf_reader__for_each_build_id(s->r, on_build_id, s);
	if (err && err != -EBADMSG)
		return err;
	read_info(s);
	/* same kernel release: the vdso of this process is the recorded one */
	s->dsos.own_vdso =
	    s->kernel_release[0] && !uname(&u) && !strcmp(u.release, s->kernel_release);
	err = read_sections(s);
	if (err)
		return err;
	perf_reader__skip_samples(s->r, !s->pass1_sample);
	err = perf_reader__for_each_event(s->r, pass1, s);
	perf_reader__skip_samples(s->r, false);
	if (err) /* nothing to get ready for */
		__atomic_store_n(&s->kernel_wait_work, NULL, __ATOMIC_RELEASE);
	if (!s->ksyms_wait_later || err)
		session__kernel_wait(s);
	if (err)
		return err;
	session__machine_perfmaps(s);
	ctx_switches__finish(&s->switches);
	err = addrspace__finish(&s->as);
	if (!err)
		err = addrspace__finish(&s->data_as);
	if (!err)
		err = jit_symbols__finish(&s->jit, &s->as);
	return err;
}

struct span {
	uint64_t first, last;
};

static int span_event(const struct pr_event *ev, void *ctx)
{
	struct span *sp = ctx;

	if (ev->type != PERF_RECORD_SAMPLE || !ev->id.has_time)
		return 0;
	if (ev->id.time < sp->first)
		sp->first = ev->id.time;
	if (ev->id.time > sp->last)
		sp->last = ev->id.time;
	return 0;
}

int session__sample_span(struct session *s, uint64_t *first, uint64_t *last)
{
	struct span sp = { UINT64_MAX, 0 };
	const void *data;
	size_t len;
	int err;

	if (!perf_reader__feature(s->r, PERF_FEAT_SAMPLE_TIME, &data, &len) && len >= 16) {
		sp.first = perf_reader__u64(s->r, data);
		sp.last = perf_reader__u64(s->r, (const uint8_t *)data + 8);
	} else {
		err = perf_reader__for_each_event(s->r, span_event, &sp);
		if (err)
			return err;
	}
	if (sp.first > sp.last)
		return -ENOENT;
	*first = sp.first;
	*last = sp.last;
	return 0;
}

void session__close(struct session *s)
{
	if (!s)
		return;
	__atomic_store_n(&s->kernel_wait_work, NULL, __ATOMIC_RELEASE);
	session__kernel_wait(s);
	proc_history__release(&s->procs);
	addrspace__release(&s->as);
	addrspace__release(&s->data_as);
	jit_symbols__release(&s->jit);
	dso_set__release(&s->dsos);
	stored_syms__release(&s->stored);
	archive_syms__release(&s->archive);
	code_table__release(&s->code);
	kernel_syms__release(&s->ksyms);
	kernel_syms__release(&s->ksyms_mods);
	elf_image__close(s->vmlinux);
	free(s->vmlinux_path);
	file_cookies__release(&s->cookies);
	ctx_switches__release(&s->switches);
	session__free_caches(s);
	strpool__release(&s->strings);
	perf_reader__close(s->r);
	memset(s, 0, sizeof(*s));
}
