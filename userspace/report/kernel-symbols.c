// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-symbols: the report's kernel symbol table, loaded once, on a thread
 * of its own while the first pass goes on. The best source first: the
 * symbols jrec archive stored (those the recording machine used), a vmlinux
 * with the recorded build-id, the System.map of the recorded release (if it
 * agrees with the recorded kallsyms), the recorded kallsyms, perf's copy of
 * kallsyms, and the running kernel's when it is the recorded one. Relocated
 * by the recorded _text (KASLR); module symbols from the recorded kallsyms.
 * Every file of this machine is read through machine-files.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "elf-image.h"
#include "machine-files.h"
#include "procfs.h"
#include "session.h"

/* The symbols of a kallsyms or System.map file, parsed where it was read (megabytes: no copy). */
static bool try_ksyms_file(struct session *s, const char *path, const char *source)
{
	size_t len, map_len;
	char *text;

	if (machine_file__take(path, &text, &len, &map_len) ||
	    kernel_syms__parse_owned(&s->ksyms, text, len, map_len))
		return false;
	if (!s->ksyms.tab.nr) {
		kernel_syms__release(&s->ksyms);
		return false;
	}
	s->ksyms_source = source;
	return true;
}

/* A vmlinux with the recorded kernel's build-id, with its _text. */
static bool try_vmlinux(struct session *s)
{
	char hex[JREC_COOKIE_HEX_LEN], path[8400];
	const char *rel = s->kernel_release;
	uint8_t id[20];
	int i;

	if (!s->kernel_bid.len)
		return false;
	jrec_cookie_hex(&s->kernel_bid, hex);
	for (i = 0; i < 4; i++) {
		struct elf_image *img;
		uint64_t text;
		int fd;

		if (i == 0)
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug",
				 s->dsos.debug_dir, hex, hex + 2);
		else if (i == 1)
			snprintf(path, sizeof(path), "%s/boot/vmlinux-%s", s->dsos.debug_dir, rel);
		else if (i == 2)
			snprintf(path, sizeof(path), "%s/lib/modules/%s/build/vmlinux",
				 s->dsos.symfs, rel);
		else
			snprintf(path, sizeof(path), "%s/boot/vmlinux-%s", s->dsos.symfs, rel);
		fd = machine_file__open(path);
		if (fd < 0 || elf_image__open_fd(fd, &img))
			continue;
		if (elf_image__build_id(img, id, sizeof(id)) != s->kernel_bid.len ||
		    memcmp(id, s->kernel_bid.bytes, s->kernel_bid.len) ||
		    elf_image__symbol_value(img, "_text", &text) ||
		    kernel_syms__from_symtab(&s->ksyms, elf_image__symtab(img), text)) {
			elf_image__close(img);
			continue;
		}
		s->vmlinux = img;
		s->vmlinux_path = strdup(path); /* NULL: its code is not read, its symbols still count */
		s->vmlinux_text = text;
		s->ksyms_source = "vmlinux";
		return true;
	}
	return false;
}

/*
 * A System.map is chosen by release name alone, and a kernel rebuilt under
 * the same release has other addresses. When the recording holds the
 * kallsyms of the kernel that ran, the relocated map must agree with it:
 * of up to 256 core-kernel symbols spread over the recorded table, 9 in 10
 * must be in the map at the same address under the same name.
 */
static bool system_map_agrees(struct session *s)
{
	struct kernel_syms rec = {0};
	size_t i, step, checked = 0, same = 0;
	const void *p;
	size_t len;

	if (perf_reader__jrec_feature(s->r, JREC_FEAT_KALLSYMS, &p, &len) ||
	    kernel_syms__parse(&rec, p, len))
		return true; /* nothing to compare with */
	if (rec.text_addr && s->kernel_text && !kernel_syms__relocate(&s->ksyms, s->kernel_text)) {
		step = rec.tab.nr / 256 + 1;
		for (i = 0; i < rec.tab.nr; i += step) {
			const struct sym *r = &rec.tab.syms[i], *m;

			if (r->module)
				continue;
			m = symtab__find(&s->ksyms.tab, r->start);
			checked++;
			same += m && m->start == r->start && !strcmp(m->name, r->name);
		}
	}
	kernel_syms__release(&rec);
	return same * 10 >= checked * 9;
}

struct kernel_bid {
	uint8_t id[20], len;
};

static int parse_notes(const void *bytes, size_t len, void *ctx)
{
	struct kernel_bid *b = ctx;

	return procfs_parse_build_id_note(bytes, len, b->id, &b->len);
}

static bool take_carried(struct session *s);

void session__kernel_load(struct session *s)
{
	char path[4400];
	const void *p;
	size_t len;
	struct kernel_bid running = {{0}, 0};
	struct utsname u;

	if (take_carried(s))
		return;
	s->ksyms_tried = true;
	/* those the recording machine's report used, if jrec archive stored them */
	if (!archive_syms__kernel(&s->archive, &s->ksyms) && s->ksyms.tab.nr) {
		s->ksyms_source = "archive";
		s->have_ksyms = true;
		return;
	}
	kernel_syms__release(&s->ksyms);
	/* vmlinux by build-id, then System.map for the recorded release */
	if (try_vmlinux(s))
		goto found;
	if (s->kernel_release[0]) {
		snprintf(path, sizeof(path), "%s/boot/System.map-%s", s->dsos.symfs,
			 s->kernel_release);
		if (try_ksyms_file(s, path, "System.map")) {
			if (system_map_agrees(s))
				goto found;
			kernel_syms__release(&s->ksyms); /* another build of the release */
		}
	}
	/* the copy in the recording */
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_KALLSYMS, &p, &len) &&
	    !kernel_syms__parse(&s->ksyms, p, len)) {
		if (s->ksyms.tab.nr) {
			s->ksyms_source = "recorded kallsyms";
			goto found;
		}
		kernel_syms__release(&s->ksyms); /* no symbols in it: the next source */
	}
	/* perf's copy of kallsyms, taken when perf record ran, by kernel build-id */
	if (s->kernel_bid.len && getenv("HOME")) {
		char hex[JREC_COOKIE_HEX_LEN];

		jrec_cookie_hex(&s->kernel_bid, hex);
		snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/%s/kallsyms",
			 getenv("HOME"), hex);
		if (try_ksyms_file(s, path, "perf-cache kallsyms"))
			goto found;
	}
	/* the running kernel, when it is the recorded one */
	if (machine_file__read("/sys/kernel/notes", parse_notes, &running))
		running.len = 0;
	if (s->live || (s->kernel_bid.len ? (running.len == s->kernel_bid.len &&
					     !memcmp(running.id, s->kernel_bid.bytes, running.len))
					  : (!uname(&u) && !strcmp(u.release, s->kernel_release)))) {
		if (try_ksyms_file(s, "/proc/kallsyms", "/proc/kallsyms"))
			goto found;
	}
	return;
found:
	if (s->kernel_text && kernel_syms__relocate(&s->ksyms, s->kernel_text) == 0)
		symtab__finish(&s->ksyms.tab, 1 << 20);
	s->have_ksyms = true;
	if (strcmp(s->ksyms_source, "System.map") && strcmp(s->ksyms_source, "vmlinux"))
		return;
	/* vmlinux and System.map have no modules: take them, at their load addresses, from the
	 * recording */
	if (!perf_reader__jrec_feature(s->r, JREC_FEAT_KALLSYMS, &p, &len) &&
	    !kernel_syms__parse(&s->ksyms_mods, p, len)) {
		size_t i;

		for (i = 0; i < s->ksyms_mods.tab.nr; i++) {
			const struct sym *m = &s->ksyms_mods.tab.syms[i];
			int idx;

			if (!m->module)
				continue;
			idx = (int)s->ksyms.nr_modules;
			if (kernel_syms__add_module(&s->ksyms, s->ksyms_mods.modules[m->module],
						    &idx) ||
			    symtab__add(&s->ksyms.tab, m->start, m->end - m->start, m->name, 0))
				break;
			s->ksyms.tab.syms[s->ksyms.tab.nr - 1].module = (uint16_t)idx;
		}
		symtab__finish(&s->ksyms.tab, 1 << 20);
	}
}

static void *load_kernel_thread(void *arg)
{
	struct session *s = arg;
	void (*work)(void);

	session__kernel_load(s);
	__atomic_store_n(&s->ksyms_done, true, __ATOMIC_RELEASE);
	work = __atomic_load_n(&s->kernel_wait_work, __ATOMIC_ACQUIRE);
	if (work)
		work();
	return NULL;
}

void session__kernel_prefetch(struct session *s)
{
	if (s->ksyms_loading || s->ksyms_tried || !s->kernel_text || take_carried(s))
		return;
	/* if no thread can be had, resolve_kernel() loads them when it first needs them */
	s->ksyms_loading = !pthread_create(&s->ksyms_thread, NULL, load_kernel_thread, s);
}

void session__kernel_wait(struct session *s)
{
	void (*work)(void);

	if (!s->ksyms_loading)
		return;
	work = __atomic_load_n(&s->kernel_wait_work, __ATOMIC_ACQUIRE);
	if (work && !__atomic_load_n(&s->ksyms_done, __ATOMIC_ACQUIRE))
		work();
	pthread_join(s->ksyms_thread, NULL);
	s->ksyms_loading = false;
}

void kernel_carry__release(struct kernel_carry *c)
{
	kernel_syms__release(&c->ksyms);
	kernel_syms__release(&c->mods);
	elf_image__close(c->vmlinux);
	free(c->vmlinux_path);
	memset(c, 0, sizeof(*c));
}

void session__kernel_keep(struct session *s, struct kernel_carry *c)
{
	session__kernel_wait(s);
	if (!s->ksyms_tried)
		return; /* never needed: what @c holds stays */
	kernel_carry__release(c);
	*c = (struct kernel_carry){ .held = true, .ksyms = s->ksyms, .mods = s->ksyms_mods,
				    .vmlinux = s->vmlinux, .vmlinux_path = s->vmlinux_path,
				    .vmlinux_text = s->vmlinux_text, .kernel_text = s->kernel_text,
				    .source = s->ksyms_source, .have = s->have_ksyms };
	memset(&s->ksyms, 0, sizeof(s->ksyms));
	memset(&s->ksyms_mods, 0, sizeof(s->ksyms_mods));
	s->vmlinux = NULL;
	s->vmlinux_path = NULL;
	s->have_ksyms = false;
}

void session__kernel_from(struct session *s, struct kernel_carry *c)
{
	s->kernel_carry = c;
}

/* The carried symbols taken, when they are of this kernel: true; else false, to load them. */
static bool take_carried(struct session *s)
{
	struct kernel_carry *c = s->kernel_carry;

	if (!c || !c->held || !s->kernel_text || c->kernel_text != s->kernel_text)
		return false;
	s->ksyms = c->ksyms;
	s->ksyms_mods = c->mods;
	s->vmlinux = c->vmlinux;
	s->vmlinux_path = c->vmlinux_path;
	s->vmlinux_text = c->vmlinux_text;
	s->ksyms_source = c->source;
	s->have_ksyms = c->have;
	s->ksyms_tried = true;
	memset(c, 0, sizeof(*c)); /* the session owns them now */
	s->kernel_carry = NULL;
	return true;
}
