// SPDX-License-Identifier: GPL-2.0
/*
 * Executable brk: a child with the READ_IMPLIES_EXEC personality grows its
 * heap twice with brk(); each growth gives one MMAP3 cause brk of exactly
 * the pages it added, [PAGE_ALIGN(old break), PAGE_ALIGN(new break)), with
 * PROT_EXEC, and the heap runs code; shrinking it back by the second
 * growth gives one MUNMAP cause munmap of exactly those pages. A child
 * without that personality (a data heap) gives neither.
 */
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "jsession.h"

#define ALIGN_UP(x) (((x) + JS_PAGE - 1) & ~(JS_PAGE - 1))

struct brks {
	uint64_t b0, b1, b2; /* the break before and after each growth */
	uint64_t b3;	     /* after shrinking back to b1 */
	uint32_t ran;	     /* what the code on the heap returned */
	int32_t persona_ok;
};

/* In the child: grow the heap twice by raw brk(), report through @pipefd. */
static void child(int pipefd, int exec_heap)
{
	struct brks b = {0};

	b.persona_ok = 1;
	if (exec_heap) {
		personality(READ_IMPLIES_EXEC);
		b.persona_ok = (personality(0xffffffff) & READ_IMPLIES_EXEC) != 0;
	}
	b.b0 = (uint64_t)syscall(SYS_brk, 0);
	b.b1 = (uint64_t)syscall(SYS_brk, b.b0 + 3 * JS_PAGE + 100);
	b.b2 = (uint64_t)syscall(SYS_brk, b.b1 + JS_PAGE);
	if (exec_heap && b.b1 >= ALIGN_UP(b.b0) + JS_PAGE) {
		js_write_code((void *)ALIGN_UP(b.b0), 0x43);
		b.ran = js_run_code((void *)ALIGN_UP(b.b0));
	}
	b.b3 = (uint64_t)syscall(SYS_brk, b.b1);
	if (write(pipefd, &b, sizeof(b)) != sizeof(b))
		_exit(2);
	_exit(0);
}

static int run_child(int exec_heap, struct brks *b, pid_t *pid)
{
	int p[2], st;

	if (pipe(p))
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		close(p[0]);
		child(p[1], exec_heap);
	}
	close(p[1]);
	if (read(p[0], b, sizeof(*b)) != sizeof(*b))
		return -1;
	close(p[0]);
	if (waitpid(*pid, &st, 0) != *pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return 0;
}

static const struct jmmap_rec_mmap3 *find_brk(struct js_records *r, pid_t pid, uint64_t start,
					      uint64_t len, int *count, int *all)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	*count = *all = 0;
	js_for_each(r, h)
	{
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type != JMMAP_REC_MMAP3 || m->pid != (uint32_t)pid)
			continue;
		(*all)++;
		if (m->cause != JMMAP_CAUSE_BRK)
			continue;
		(*count)++;
		if (m->start == start && m->len == len)
			found = m;
	}
	return found;
}

int main(void)
{
	const struct jmmap_rec_mmap3 *m1, *m2;
	struct js_records r = {0};
	struct brks b;
	int fd, count, all;
	pid_t pid;

	ktap_begin();
	fd = js_open_self(0, 0);
	js_drain(fd, &r);
	js_free(&r);

	if (run_child(1, &b, &pid))
		ktap_skip_all("the brk child failed");
	if (!b.persona_ok)
		ktap_skip_all("personality(READ_IMPLIES_EXEC) did not stick");
	ktap_ok(b.b1 == b.b0 + 3 * JS_PAGE + 100 && b.b2 == b.b1 + JS_PAGE,
		"brk_grew: the break moved 0x%llx -> 0x%llx -> 0x%llx", (unsigned long long)b.b0,
		(unsigned long long)b.b1, (unsigned long long)b.b2);
	ktap_ok(b.ran == 0x43, "exec_heap_runs: code on the READ_IMPLIES_EXEC heap ran");
	js_drain(fd, &r);
	m1 = find_brk(&r, pid, ALIGN_UP(b.b0), ALIGN_UP(b.b1) - ALIGN_UP(b.b0), &count, &all);
	m2 = find_brk(&r, pid, ALIGN_UP(b.b1), ALIGN_UP(b.b2) - ALIGN_UP(b.b1), &count, &all);
	if (!ktap_ok(m1 && (m1->prot & PROT_EXEC) && !strcmp(js_mmap3_name(m1), "//anon"),
		     "brk_first_growth: MMAP3 cause brk of exactly 0x%llx+0x%llx",
		     (unsigned long long)ALIGN_UP(b.b0),
		     (unsigned long long)(ALIGN_UP(b.b1) - ALIGN_UP(b.b0))))
		js_dump(&r, pid);
	ktap_ok(m2 && (m2->prot & PROT_EXEC),
		"brk_second_growth: MMAP3 cause brk of exactly "
		"0x%llx+0x%llx",
		(unsigned long long)ALIGN_UP(b.b1),
		(unsigned long long)(ALIGN_UP(b.b2) - ALIGN_UP(b.b1)));
	ktap_ok(count == 2, "brk_one_record_each: 2 MMAP3 cause brk (%d)", count);
	{
		const struct jmmap_rec_munmap *u;

		u = js_find_munmap(&r, pid, ALIGN_UP(b.b1), ALIGN_UP(b.b2) - ALIGN_UP(b.b1),
				   JMMAP_UNMAP_MUNMAP, &count);
		if (!ktap_ok(b.b3 == b.b1 && u && u->cause == JMMAP_UNMAP_MUNMAP && count == 1,
			     "brk_shrunk: shrinking the heap by its second growth gives one MUNMAP "
			     "cause munmap of exactly 0x%llx+0x%llx (%d MUNMAPs, cause %u)",
			     (unsigned long long)ALIGN_UP(b.b1),
			     (unsigned long long)(ALIGN_UP(b.b2) - ALIGN_UP(b.b1)), count,
			     u ? u->cause : 0))
			js_dump(&r, pid);
	}
	ktap_ok(m1 && m2 && m1->vma_start <= m1->start && m2->vma_start <= m1->start &&
		    m2->vma_end >= m2->start + m2->len,
		"brk_vma_bounds: the heap's vma holds both growths");
	js_free(&r);

	if (run_child(0, &b, &pid)) {
		ktap_ok(0, "data_heap_silent: the child failed");
	} else {
		js_drain(fd, &r);
		find_brk(&r, pid, 0, 0, &count, &all);
		ktap_ok(count == 0,
			"data_heap_silent: a heap without PROT_EXEC gives no MMAP3 "
			"cause brk (%d)",
			count);
		js_find_munmap(&r, pid, 0, 0, 0, &count);
		ktap_ok(b.b3 == b.b1 && count == 0,
			"data_heap_shrunk_silent: shrinking it gives no MUNMAP (%d)", count);
		js_free(&r);
	}
	close(fd);
	return ktap_finish();
}
