// SPDX-License-Identifier: GPL-2.0
/*
 * Coalescing: a JIT commits code page by page. The kernel merges the pages
 * into one growing vma; MMAP3 must carry exactly the page each call changed,
 * with the merged vma's bounds beside it.
 */
#include "jsession.h"

#define PAGES 8

static int check_pages(struct js_records *r, uint8_t *base, uint16_t cause, const char *what)
{
	unsigned int seen = 0, i;
	int ok = 1;

	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type != JMMAP_REC_MMAP3 || m->pid != (uint32_t)getpid() ||
		    m->cause != cause || m->start < (uintptr_t)base ||
		    m->start >= (uintptr_t)base + (PAGES + 1) * JS_PAGE)
			continue;
		i = seen++;
		if (i >= PAGES)
			continue;
		if (m->start != (uintptr_t)base + i * JS_PAGE || m->len != JS_PAGE ||
		    !(m->prot & 4) || strcmp(js_mmap3_name(m), "//anon") ||
		    m->cookie_kind != JMMAP_COOKIE_NONE)
			ok = 0;
		if (m->vma_start != (uintptr_t)base ||
		    m->vma_end != (uintptr_t)base + (i + 1) * JS_PAGE)
			ok = 0;
	}
	ktap_ok(seen == PAGES, "%s_eight_records: %u MMAP3 records of cause %s (want %u)", what,
		seen, js_cause(cause), PAGES);
	ktap_ok(ok && seen == PAGES,
		"%s_exact_page_and_growing_vma: each record is its own page, vma grows from base",
		what);
	if (!ok || seen != PAGES)
		js_dump(r, getpid());
	return ok;
}

int main(void)
{
	struct js_records r = { 0 };
	uint8_t *base;
	int fd, i, ran = 1;

	ktap_begin();
	fd = js_open_self(0, 0);

	/* mprotect: PROT_NONE region; per page RW, write code, RX, run it. */
	base = mmap(NULL, (PAGES + 1) * JS_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap of the PROT_NONE region failed");
	for (i = 0; i < PAGES; i++) {
		uint8_t *pg = base + i * JS_PAGE;

		if (mprotect(pg, JS_PAGE, PROT_READ | PROT_WRITE))
			ran = 0;
		js_write_code(pg, 100 + i);
		if (mprotect(pg, JS_PAGE, PROT_READ | PROT_EXEC))
			ran = 0;
		if (js_run_code(pg) != 100u + i)
			ran = 0;
	}
	ktap_ok(ran, "mprotect_jit_runs: eight pages written, made executable and run");
	js_drain(fd, &r);
	check_pages(&r, base, JMMAP_CAUSE_MPROTECT, "mprotect");
	munmap(base, (PAGES + 1) * JS_PAGE);
	js_free(&r);
	js_drain(fd, &r);
	js_free(&r);

	/* mmap: 8 adjacent MAP_FIXED anonymous executable pages. */
	base = mmap(NULL, (PAGES + 1) * JS_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap of the PROT_NONE region failed");
	ran = 1;
	for (i = 0; i < PAGES; i++) {
		uint8_t *pg = base + i * JS_PAGE;

		if (mmap(pg, JS_PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != pg)
			ran = 0;
		js_write_code(pg, 200 + i);
		if (js_run_code(pg) != 200u + i)
			ran = 0;
	}
	ktap_ok(ran, "mmap_fixed_jit_runs: eight MAP_FIXED pages mapped, written and run");
	js_drain(fd, &r);
	check_pages(&r, base, JMMAP_CAUSE_MMAP, "mmap_fixed");
	ktap_ok(r.framing_errors == 0, "records_well_framed: every record has a valid {type, size}");
	js_free(&r);
	close(fd);
	return ktap_finish();
}
