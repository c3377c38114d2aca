// SPDX-License-Identifier: GPL-2.0
/*
 * session: open a recording and read everything but the samples (pass 1):
 * the kernel's mapping and task records, the BUILD_ID feature, and jrec's
 * private features (INFO, JMMAP, JITDUMP, PERFMAP). Sample resolution lives in
 * resolve.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "array.h"
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

static struct thread *get_thread(struct session *s, uint32_t tid, uint32_t pid)
{
	struct thread *t = pidmap__get(&s->threads, tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	if (pidmap__put(&s->threads, tid, t)) {
		free(t);
		return NULL;
	}
	return t;
}

static int add_comm(struct session *s, uint32_t pid, uint32_t tid, uint64_t time,
		    const char *comm, size_t len)
{
	struct thread *t = get_thread(s, tid, pid);
	const char *c = strpool__intern(&s->strings, comm, len);

	if (!t || !c || array_grow(&t->comms, &t->cap_comms, t->nr_comms + 1))
		return -ENOMEM;
	t->comms[t->nr_comms].time = time;
	t->comms[t->nr_comms].comm = c;
	t->nr_comms++;
	return 0;
}

const char *session__comm(struct session *s, uint32_t tid, uint32_t pid, uint64_t time)
{
	const struct thread *t = pidmap__get(&s->threads, tid);
	char buf[32];
	int depth;

	for (depth = 0; t && depth < 16; depth++) {
		const struct comm_ev *best = NULL, *first = NULL;
		size_t i;

		for (i = 0; i < t->nr_comms; i++) {
			const struct comm_ev *c = &t->comms[i];

			/* at the same time a name of its own beats a fork's marker */
			if (c->time <= time && (!best || c->time > best->time ||
						(c->time == best->time && c->comm)))
				best = c;
			if (c->comm && (!first || c->time < first->time))
				first = c;
		}
		if (best && best->comm)
			return best->comm;
		if (best) {
			/* a later thread under a reused tid: its creator's name then */
			time = best->time;
			t = pidmap__get(&s->threads, best->ptid);
			continue;
		}
		if (t->has_parent && t->ptid != t->tid) {
			if (t->fork_time < time)
				time = t->fork_time;
			t = pidmap__get(&s->threads, t->ptid);
			continue;
		}
		if (first)
			return first->comm;
		break;
	}
	if (!tid)
		return strpool__str(&s->strings, "swapper"); /* the idle task, as perf names it */
	snprintf(buf, sizeof(buf), ":%u", tid);
	return strpool__str(&s->strings, buf);
}

/*
 * A FORK of @th: the first makes it @ptid's child; a later one, a full turn
 * of the pid space on (the kernel's and jmmap's reports of one fork come a
 * moment apart), is a new thread under the same tid, named as its creator
 * until it gets a name of its own.
 */
static int on_thread_fork(struct session *s, struct thread *th, uint32_t ptid, uint64_t time)
{
	size_t i;

	/* the earliest fork makes it a child (records are not read in time order) */
	if (!th->has_parent || time < th->fork_time) {
		th->has_parent = true;
		th->ptid = ptid;
		th->fork_time = time;
	}
	/*
	 * Every fork also leaves a marker: from then on the thread is named as
	 * its creator until it gets a name of its own, whatever it was called
	 * under this tid before (a process that ran before the recording).
	 */
	if (ptid == th->tid)
		return 0;
	for (i = 0; i < th->nr_comms; i++)
		if (!th->comms[i].comm && addrspace__same_fork(th->comms[i].time, time))
			return 0;
	if (array_grow(&th->comms, &th->cap_comms, th->nr_comms + 1))
		return -ENOMEM;
	th->comms[th->nr_comms].time = time;
	th->comms[th->nr_comms].comm = NULL;
	th->comms[th->nr_comms].ptid = ptid;
	th->nr_comms++;
	return 0;
}

/* @pid created by @ppid at @t: its own mappings and JIT code start afresh. */
static int new_process(struct session *s, uint32_t pid, uint32_t ppid, uint64_t t)
{
	int err = addrspace__add_fork(&s->as, pid, ppid, t);

	/* an earlier process under a reused pid: its JIT symbols end here */
	return err ? err : jit_symbols__exec(&s->jit, pid, t);
}

static int bid_cmp(const void *a, const void *b)
{
	const struct bid_entry *x = a, *y = b;

	return x->path < y->path ? -1 : x->path > y->path;
}

static int on_build_id(int32_t pid, uint16_t misc, const uint8_t *id, size_t id_len,
		       const char *filename, void *ctx)
{
	struct session *s = ctx;
	struct bid_entry *n;
	const char *p = strpool__str(&s->strings, filename);

	if (!p || array_grow(&s->bids, &s->cap_bids, s->nr_bids + 1))
		return -ENOMEM;
	n = s->bids;
	memset(&n[s->nr_bids], 0, sizeof(*n));
	n[s->nr_bids].path = p;
	n[s->nr_bids].cookie.kind = JMMAP_COOKIE_ELF_BUILD_ID;
	n[s->nr_bids].cookie.len = (uint8_t)id_len;
	memcpy(n[s->nr_bids].cookie.bytes, id, id_len);
	s->nr_bids++;
	if (!strcmp(filename, "[kernel.kallsyms]") && !s->kernel_bid.len)
		s->kernel_bid = n[s->nr_bids - 1].cookie;
	return 0;
}

static const struct jrec_cookie *bid_for(struct session *s, const char *path)
{
	const char *p = strpool__str(&s->strings, path);
	struct bid_entry key = { .path = p };
	const struct bid_entry *e;

	if (!p || !s->nr_bids)
		return NULL;
	e = bsearch(&key, s->bids, s->nr_bids, sizeof(*s->bids), bid_cmp);
	return e ? &e->cookie : NULL;
}

static int file_cmp(const void *a, const void *b)
{
	const struct bid_entry *x = a, *y = b;

	if (x->path != y->path)
		return x->path < y->path ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The cookie the recorder computed for @path as mapped by @pid
 * (JREC_FEAT_FILES), the only source for files the kernel gives no build-id
 * for, such as a runtime's own image format. *@exact tells whether @pid had
 * an entry; without one, the path's cookie if every process that mapped it
 * saw the same.
 */
static const struct jrec_cookie *file_cookie_for(struct session *s, uint32_t pid,
						 const char *path, bool *exact)
{
	const char *p = s->nr_files ? strpool__str(&s->strings, path) : NULL;
	const struct bid_entry *e, *end, *own = NULL;
	size_t lo = 0, hi = s->nr_files;
	bool same = true;

	*exact = false;
	if (!p)
		return NULL;
	end = s->files + s->nr_files;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->files[mid].path < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nr_files || s->files[lo].path != p)
		return NULL;
	for (e = &s->files[lo]; e < end && e->path == p; e++) {
		if (e->pid == pid)
			own = e;
		same = same && jrec_cookie_equal(&e->cookie, &s->files[lo].cookie);
	}
	*exact = own != NULL;
	return own ? &own->cookie : same ? &s->files[lo].cookie : NULL;
}

/* The cookie of a mapped file that its record did not carry, or NULL. */
static const struct jrec_cookie *cookie_for(struct session *s, uint32_t pid, const char *path)
{
	bool exact;
	const struct jrec_cookie *fc = file_cookie_for(s, pid, path, &exact), *c;

	/* the recorder's own finding for this process first, then the BUILD_ID feature */
	if (exact)
		return fc;
	c = bid_for(s, path);
	return c ? c : fc;
}

/* A jit-PID.dump mapped by a JIT: read it at report time if the recording has no copy. */
static void note_jitdump_path(struct session *s, uint32_t pid, const char *f)
{
	struct jit_proc *jp = jit_symbols__proc(&s->jit, pid);
	struct stat st;
	bool trunc;
	void *m;
	int fd;

	if (!map_name__is_jitdump(f) || (jp && jp->has_jitdump))
		return;
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			if (jit_symbols__add_jitdump(&s->jit, pid, m, (size_t)st.st_size, &trunc) ==
				    0 &&
			    trunc)
				s->jitdump_truncated++;
			munmap(m, (size_t)st.st_size);
		}
	}
	close(fd);
}

static int on_mmap(struct session *s, const struct pr_event *ev)
{
	const struct pr_mmap *mm = &ev->mmap;
	struct as_map m = { 0 };
	struct jrec_cookie c = { 0 };
	const struct jrec_cookie *bc;

	s->nr_mmap_events++;
	if (mm->pid == UINT32_MAX) {
		/* the kernel: its reference symbol address travels as pgoff */
		if (strncmp(mm->filename, "[kernel.kallsyms]", 17))
			return 0;
		if (!s->kernel_text)
			s->kernel_text = mm->pgoff;
		/* perf record --buildid-mmap: the kernel's build-id rides on its MMAP2 */
		if (mm->build_id_size && mm->build_id_size <= sizeof(s->kernel_bid.bytes) &&
		    !s->kernel_bid.len && !s->ksyms_loading) {
			s->kernel_bid.kind = JMMAP_COOKIE_ELF_BUILD_ID;
			s->kernel_bid.len = mm->build_id_size;
			memcpy(s->kernel_bid.bytes, mm->build_id, mm->build_id_size);
		}
		return 0;
	}
	if (ev->misc & PERF_RECORD_MISC_MMAP_DATA)
		return 0;
	if (mm->is_mmap2 && !(mm->prot & 4))
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
		} else if ((bc = cookie_for(s, mm->pid, mm->filename))) {
			c = *bc;
		}
		m.dso = dso_set__get(&s->dsos, mm->filename, &c);
		if (!m.dso)
			return -ENOMEM;
		note_jitdump_path(s, mm->pid, mm->filename);
	}
	return addrspace__add_map(&s->as, mm->pid, session__time(ev), &m, false, false);
}

static int pass1(const struct pr_event *ev, void *ctx)
{
	struct session *s = ctx;
	uint64_t t = session__time(ev);
	struct thread *th;
	int err;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		/* only kernel-mode samples come here (perf_reader__skip_samples) */
		if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
			session__kernel_prefetch(s);
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
		err = add_comm(s, ev->comm.pid, ev->comm.tid, t, ev->comm.comm,
			       strlen(ev->comm.comm));
		if (!err && ev->comm.exec && ev->comm.pid == ev->comm.tid)
			err = addrspace__add_exec(&s->as, ev->comm.pid, t, false);
		if (!err && ev->comm.exec && ev->comm.pid == ev->comm.tid)
			err = jit_symbols__exec(&s->jit, ev->comm.pid, t);
		return err;
	case PERF_RECORD_FORK:
		th = get_thread(s, ev->task.tid, ev->task.pid);
		/* the record's own time, on the clock the other records use */
		if (ev->id.has_time && ev->task.time)
			t = ev->task.time;
		if (!th)
			return -ENOMEM;
		err = on_thread_fork(s, th, ev->task.ptid, t);
		if (!err && ev->task.pid != ev->task.ppid)
			err = new_process(s, ev->task.pid, ev->task.ppid, t);
		return err;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		s->nr_lost += ev->lost.lost;
		return 0;
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
	if (info.kernel_release[0])
		snprintf(s->kernel_release, sizeof(s->kernel_release), "%s", info.kernel_release);
	if (info.has_kernel_bid)
		s->kernel_bid = info.kernel_bid;
}

/* A corrupt section is left out: the files it names stay unsymbolized. */
static void read_stored_syms(struct session *s)
{
	const void *p;
	size_t len;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_SYMTAB, &p, &len))
		return;
	if (stored_syms__parse(&s->stored, p, len, perf_reader__swapped(s->r)))
		return;
	s->dsos.stored = &s->stored;
}

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	struct session *s = ctx;
	struct bid_entry *e;

	/* only cookies read from the very file that was mapped */
	if (f->status != JREC_FILE_SAVED && f->status != JREC_FILE_CACHED &&
	    f->status != JREC_FILE_NOT_SAVED && f->status != JREC_FILE_FAILED)
		return 0;
	if (f->cookie.kind == JMMAP_COOKIE_NONE || !f->cookie.len)
		return 0;
	if (array_grow(&s->files, &s->cap_files, s->nr_files + 1))
		return -ENOMEM;
	e = &s->files[s->nr_files];
	memset(e, 0, sizeof(*e));
	e->path = strpool__str(&s->strings, f->path);
	if (!e->path)
		return -ENOMEM;
	e->pid = f->pid;
	e->cookie = f->cookie;
	s->nr_files++;
	return 0;
}

/* JREC_FEAT_FILES: the cookies the recorder verified, by process and path. */
static int read_files(struct session *s)
{
	const void *p;
	size_t len;
	int err;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_FILES, &p, &len))
		return 0;
	err = jrec_files__walk(p, len, perf_reader__swapped(s->r), on_file, s);
	if (!err && s->nr_files)
		qsort(s->files, s->nr_files, sizeof(*s->files), file_cmp);
	return err;
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

static int read_jit_sections(struct session *s)
{
	bool swapped = perf_reader__swapped(s->r);
	const void *p;
	size_t len;
	int err;

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
	return 0;
}

static int on_jmmap(const struct jm_event *e, void *ctx)
{
	struct session *s = ctx;
	struct as_map m = { 0 };
	struct jrec_cookie c = { 0 };
	struct thread *th;
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
			const struct jrec_cookie *fc;

			c.kind = e->cookie_kind;
			c.len = e->cookie_kind ? e->cookie_len : 0;
			memcpy(c.bytes, e->cookie, c.len);
			/* the module could not read the file; the recorder may have */
			if (!c.len && (fc = cookie_for(s, e->pid, e->filename)))
				c = *fc;
			m.dso = dso_set__get(&s->dsos, e->filename, &c);
			if (!m.dso)
				return -ENOMEM;
		}
		return addrspace__add_map(&s->as, e->pid, e->time, &m, true,
					  e->cause == JMMAP_CAUSE_EXEC);
	case JMMAP_REC_MUNMAP:
		err = addrspace__add_unmap(&s->as, e->pid, e->time, e->start, e->len);
		if (!err)
			err = jit_symbols__unmap(&s->jit, e->pid, e->time, e->start, e->len);
		return err;
	case JMMAP_REC_EXEC:
		err = addrspace__add_exec(&s->as, e->pid, e->time, true);
		if (!err)
			err = jit_symbols__exec(&s->jit, e->pid, e->time);
		if (!err && e->comm[0])
			err = add_comm(s, e->pid, e->tid, e->time, e->comm, strlen(e->comm));
		return err;
	case JMMAP_REC_FORK:
		th = get_thread(s, e->tid, e->pid);
		if (!th)
			return -ENOMEM;
		err = on_thread_fork(s, th, e->ptid, e->time);
		if (err || (e->flags & JMMAP_FORK_THREAD))
			return err;
		return new_process(s, e->pid, e->ppid, e->time);
	default:
		return 0;
	}
}

static int read_jmmap(struct session *s)
{
	const void *p;
	size_t len;
	int err;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_JMMAP, &p, &len))
		return 0;
	err = jmmap_reader__walk(p, len, perf_reader__swapped(s->r), on_jmmap, s);
	if (err == -EBADMSG) {
		s->jmmap_bad = true;
		return 0;
	}
	return err;
}

/* Whole /tmp/perf-PID.map files for processes the recording has no timed lines for. */
static void read_perfmap_files(struct session *s)
{
	const struct as_proc *p;
	size_t it = 0;

	while ((p = pidmap__next(&s->as.procs, &it))) {
		struct jit_proc *jp;
		char path[64];
		struct stat st;
		void *m;
		int fd;

		jp = jit_symbols__proc(&s->jit, p->pid);
		if (jp && jp->has_timed_perfmap)
			continue;
		if (map_name__perfmap_path(path, sizeof(path), "", p->pid))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
			m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (m != MAP_FAILED) {
				jit_symbols__add_perfmap(&s->jit, p->pid, 0, m, (size_t)st.st_size);
				munmap(m, (size_t)st.st_size);
			}
		}
		close(fd);
	}
}

int session__load(struct session *s)
{
	size_t i, na = perf_reader__nr_attrs(s->r);
	int err;

	s->monotonic = true;
	for (i = 0; i < na; i++) {
		const struct pr_attr *a = perf_reader__attr(s->r, i);

		if (!a->use_clockid || a->clockid != 1 /* CLOCK_MONOTONIC */)
			s->monotonic = false;
	}
	/* without a common clock, JIT load times cannot be compared with samples */
	s->jit.ignore_time = !s->monotonic;
	perf_reader__feature_string(s->r, PERF_FEAT_OSRELEASE, s->kernel_release,
				    sizeof(s->kernel_release));
	err = perf_reader__for_each_build_id(s->r, on_build_id, s);
	if (err && err != -EBADMSG)
		return err;
	if (s->nr_bids)
		qsort(s->bids, s->nr_bids, sizeof(*s->bids), bid_cmp);
	read_info(s);
	read_stored_syms(s);
	err = read_files(s);
	if (err == -EBADMSG)
		s->nr_files = 0; /* a corrupt section: the files keep what their records say */
	else if (err)
		return err;
	{
		struct utsname u;

		/* same kernel release: the vdso of this process is the recorded one */
		s->dsos.own_vdso = s->kernel_release[0] && !uname(&u) &&
				   !strcmp(u.release, s->kernel_release);
	}
	err = read_jit_sections(s);
	if (err)
		return err;
	err = read_jmmap(s);
	if (err)
		return err;
	perf_reader__skip_samples(s->r, true);
	err = perf_reader__for_each_event(s->r, pass1, s);
	perf_reader__skip_samples(s->r, false);
	session__kernel_wait(s);
	if (err)
		return err;
	read_perfmap_files(s);
	err = addrspace__finish(&s->as);
	if (!err)
		err = jit_symbols__finish(&s->jit);
	return err;
}

void session__close(struct session *s)
{
	struct thread *t;
	size_t it = 0;

	if (!s)
		return;
	session__kernel_wait(s);
	while ((t = pidmap__next(&s->threads, &it))) {
		free(t->comms);
		free(t);
	}
	pidmap__release(&s->threads);
	addrspace__release(&s->as);
	jit_symbols__release(&s->jit);
	dso_set__release(&s->dsos);
	stored_syms__release(&s->stored);
	kernel_syms__release(&s->ksyms);
	kernel_syms__release(&s->ksyms_mods);
	elf_image__close(s->vmlinux);
	free(s->bids);
	free(s->files);
	session__free_caches(s);
	strpool__release(&s->strings);
	perf_reader__close(s->r);
	memset(s, 0, sizeof(*s));
}
