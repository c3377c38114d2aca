// SPDX-License-Identifier: GPL-2.0
/*
 * The two ways the mm hooks are armed (hooks-mm.c): by default with
 * ftrace's direct calls, each hooked function's fentry call made a call of
 * jmmap_mm_direct; with the module's parameter ftrace_direct=0, through
 * ftrace's list, mm_ftrace_entry() a callback of an ops. tracefs's
 * enabled_functions shows which one a function has. Both give the same
 * records for the same calls, with the arguments past the sixth (the
 * seventh of mprotect_fixup() on 6.6+) read right: a page mapped
 * read-write, made executable, called, made read-write again, then
 * executable and unmapped gives exactly MMAP3 cause mprotect, MUNMAP cause
 * mprotect, MMAP3 cause mprotect and MUNMAP cause munmap, each of that page.
 * With no session open neither way leaves anything armed.
 */
#include <sys/mount.h>

#include "jsession.h"

#define PARAM "/sys/module/jmmap/parameters/ftrace_direct"
#define ENABLED "/sys/kernel/tracing/enabled_functions"

static const char *const hooked[] = { "perf_event_mmap", "mmap_region", "mprotect_fixup",
				      "unmap_vmas" };

/* enabled_functions, or NULL when tracefs cannot be read. */
static char *read_enabled(void)
{
	static char text[1 << 16];
	ssize_t n;
	int fd;

	fd = open(ENABLED, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0)
		fd = open(ENABLED, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	text[n] = 0;
	return text;
}

/*
 * The entry of @fn in enabled_functions and the line after it (a direct
 * call's target is printed on its own line): whether it names @what.
 */
static int entry_names(const char *text, const char *fn, const char *what)
{
	size_t len = strlen(fn);
	const char *p = text, *end;

	while ((p = strstr(p, fn))) {
		if ((p == text || p[-1] == '\n') && p[len] == ' ') {
			end = strchr(p, '\n');
			if (end && end[1] == '\t')
				end = strchr(end + 1, '\n');
			return memmem(p, end ? (size_t)(end - p) : strlen(p), what, strlen(what)) !=
			       NULL;
		}
		p += len;
	}
	return 0;
}

static int set_param(const char *v)
{
	int fd = open(PARAM, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = write(fd, v, 1) == 1;
	close(fd);
	return ok;
}

/* The records of @type and @cause for exactly @page in @r. */
static int of_page(struct js_records *r, uint8_t *page, uint16_t type, uint32_t cause)
{
	int count = 0;

	js_for_each(r, h) {
		if (h->type != type)
			continue;
		if (type == JMMAP_REC_MMAP3) {
			const struct jmmap_rec_mmap3 *m = (const void *)h;

			count += m->pid == (uint32_t)getpid() && m->start == (uintptr_t)page &&
				 m->len == JS_PAGE && m->cause == cause && (m->prot & PROT_EXEC);
		} else {
			const struct jmmap_rec_munmap *u = (const void *)h;

			count += u->pid == (uint32_t)getpid() && u->start == (uintptr_t)page &&
				 u->len == JS_PAGE && u->cause == cause;
		}
	}
	return count;
}

/* The calls, under a session of their own opened now; the records checked. */
static void calls(const char *way, const char *target)
{
	struct js_records r = {0};
	const char *text;
	uint8_t *page;
	size_t i;
	int fd, ok = 1;

	fd = js_open_self(0, 0);
	text = read_enabled();
	if (!text) {
		ktap_skip("tracefs cannot be read", "%s_armed", way);
	} else {
		for (i = 0; i < sizeof(hooked) / sizeof(hooked[0]); i++)
			if (!entry_names(text, hooked[i], target)) {
				ktap_diag("%s: no %s in enabled_functions", hooked[i], target);
				ok = 0;
			}
		ktap_ok(ok, "%s_armed: the hooked functions call %s", way, target);
	}

	page = mmap(NULL, JS_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		ktap_skip_all("mmap failed");
	js_write_code(page, 46);
	js_drain(fd, &r);
	js_free(&r);
	ok = !mprotect(page, JS_PAGE, PROT_READ | PROT_EXEC) && js_run_code(page) == 46 &&
	     !mprotect(page, JS_PAGE, PROT_READ | PROT_WRITE) &&
	     !mprotect(page, JS_PAGE, PROT_READ | PROT_EXEC) && !munmap(page, JS_PAGE);
	js_drain(fd, &r);
	ok = ok && r.framing_errors == 0 && r.count == 4 &&
	     of_page(&r, page, JMMAP_REC_MMAP3, JMMAP_CAUSE_MPROTECT) == 2 &&
	     of_page(&r, page, JMMAP_REC_MUNMAP, JMMAP_UNMAP_MPROTECT) == 1 &&
	     of_page(&r, page, JMMAP_REC_MUNMAP, JMMAP_UNMAP_MUNMAP) == 1;
	ktap_ok(ok, "%s_records: mprotect RX, RW, RX and munmap of a page give its two MMAP3 and "
		    "two MUNMAP, exact (%zu records)",
		way, r.count);
	if (!ok)
		js_dump(&r, getpid());
	js_free(&r);
	close(fd);

	text = read_enabled();
	if (text) {
		ok = 1;
		for (i = 0; i < sizeof(hooked) / sizeof(hooked[0]); i++)
			ok = ok && !entry_names(text, hooked[i], target);
		ktap_ok(ok, "%s_disarmed: no function calls %s once the session closed", way,
			target);
	}
}

int main(void)
{
	char was = 'Y';
	int fd;

	ktap_begin();
	fd = open(PARAM, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &was, 1) != 1)
		ktap_skip_all(PARAM " cannot be read: is jmmap loaded?");
	close(fd);
	ktap_ok(was == 'Y', "direct_by_default: ftrace_direct is Y (%c)", was);

	calls("direct", "jmmap_mm_direct");
	if (!set_param("0")) {
		ktap_ok(0, "param_writable: " PARAM " cannot be set to 0: %s", strerror(errno));
		return ktap_finish();
	}
	calls("ftrace_list", "mm_ftrace_entry");
	ktap_ok(set_param(was == 'Y' ? "1" : "0"), "param_restored: ftrace_direct back to %c",
		was);
	return ktap_finish();
}
