// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces over time: mappings replaced by later ones, munmap
 * splitting a mapping, exec ending the old image, fork inheriting the
 * parent's mappings as of the fork, jmmap's records winning over the
 * kernel's for a traced process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "tap.h"

/* dsos are opaque here: use distinct addresses as tags */
static struct dso *const A = (struct dso *)0x10, *const B = (struct dso *)0x20,
		  *const C = (struct dso *)0x30;

static void map(struct addrspace *as, uint32_t pid, uint64_t t, uint64_t s, uint64_t e,
		struct dso *d, bool jm, bool exec_cause)
{
	struct as_map m = { .start = s, .end = e, .dso = d, .prot = 5 };

	addrspace__add_map(as, pid, t, &m, jm, exec_cause);
}

static struct dso *at(struct addrspace *as, uint32_t pid, uint64_t addr, uint64_t t)
{
	const struct as_map *m = addrspace__find(as, pid, addr, t);

	return m ? (m->dso ? m->dso : (struct dso *)0x1) : NULL;
}

int main(void)
{
	struct addrspace as = { 0 };
	bool flips_ok, many_ok;
	int i;

	printf("TAP version 13\n");
	/* pid 1: A at 0x1000-0x5000 from t=10; B replaces the middle at t=20 */
	map(&as, 1, 10, 0x1000, 0x5000, A, false, false);
	map(&as, 1, 20, 0x2000, 0x3000, B, false, false);
	addrspace__add_unmap(&as, 1, 30, 0x3000, 0x1000); /* hole in A */
	/* added out of order: exec at 40, then C */
	map(&as, 1, 41, 0x1000, 0x2000, C, false, false);
	addrspace__add_exec(&as, 1, 40, false);
	/* pid 2 forked from 1 at t=25, never execs */
	addrspace__add_fork(&as, 2, 1, 25);
	/* pid 3 traced by jmmap: its kernel records are ignored */
	map(&as, 3, 10, 0x1000, 0x2000, A, false, false);
	map(&as, 3, 11, 0x1000, 0x2000, B, true, false);
	/* pid 4: anonymous JIT pages, merged by the kernel into growing records */
	map(&as, 4, 10, 0x7000, 0x8000, NULL, false, false);
	map(&as, 4, 11, 0x7000, 0x9000, NULL, false, false);
	/*
	 * pid 6: a JIT flipping one page between writable and executable, one
	 * record per flip back (A and B in turn), inside a larger C mapping
	 */
	map(&as, 6, 5, 0x10000, 0x20000, C, false, false);
	for (i = 0; i < 2000; i++)
		map(&as, 6, 100 + 10 * i, 0x14000, 0x15000, i % 2 ? B : A, false, false);
	/*
	 * pid 7: forked by 1 at t=100, maps A of its own at 150; the pid is
	 * reused at t=1000 by a child of 3 (the kernel's and jmmap's reports of
	 * that fork 2 us apart), which never maps anything itself
	 */
	addrspace__add_fork(&as, 7, 1, 100);
	map(&as, 7, 150, 0x9000, 0xa000, A, false, false);
	addrspace__add_fork(&as, 7, 3, 1000);
	addrspace__add_fork(&as, 7, 3, 1002);
	/*
	 * pid 8: 3000 pages mapped one by one (A and B in turn), never unmapped
	 * (perf records no munmap); then C over pages 1000..1999 at t=5000
	 */
	for (i = 0; i < 3000; i++)
		map(&as, 8, 10 + i, 0x100000 + 0x1000 * (uint64_t)i, 0x101000 + 0x1000 * (uint64_t)i,
		    i % 2 ? B : A, false, false);
	map(&as, 8, 5000, 0x100000 + 0x1000 * 1000, 0x100000 + 0x1000 * 2000, C, false, false);
	/* pid 9: A, an exec at 20, then the pid reused by a fork of 1 at 30 */
	map(&as, 9, 10, 0x1000, 0x2000, A, false, false);
	addrspace__add_exec(&as, 9, 20, false);
	addrspace__add_fork(&as, 9, 1, 30);
	/* pid 5, jmmap: exec-cause mappings come before its EXEC record */
	map(&as, 5, 10, 0x1000, 0x2000, A, true, false);
	map(&as, 5, 20, 0x5000, 0x6000, B, true, true);
	addrspace__add_exec(&as, 5, 21, true);
	addrspace__finish(&as);

	check(at(&as, 1, 0x1800, 5) == NULL, "nothing before the first mapping");
	check(at(&as, 1, 0x2800, 15) == A, "the first mapping before it was covered");
	check(at(&as, 1, 0x2800, 25) == B, "a later mapping wins where it overlaps");
	check(at(&as, 1, 0x1800, 25) == A, "the older mapping stays valid outside the overlap");
	check(at(&as, 1, 0x3800, 35) == NULL && at(&as, 1, 0x4800, 35) == A,
	      "munmap punches a hole and keeps the rest");
	check(at(&as, 1, 0x4800, 45) == NULL && at(&as, 1, 0x1800, 45) == C,
	      "exec ends the old image; the new one maps after it (events added out of order)");
	check(at(&as, 2, 0x2800, 50) == B && at(&as, 2, 0x1800, 50) == A,
	      "a forked child sees its parent's mappings as of the fork");
	check(at(&as, 3, 0x1800, 20) == B, "jmmap's records win for a process it traced");
	check(at(&as, 4, 0x8800, 12) == (struct dso *)0x1, "merged anonymous records cover the range");
	check(at(&as, 7, 0x1800, 200) == C && at(&as, 7, 0x9800, 160) == A,
	      "a forked child: its parent's mappings as of the fork, and its own");
	check(at(&as, 7, 0x1800, 1500) == B && at(&as, 7, 0x9800, 1500) == NULL,
	      "a reused pid: the new process inherits from its own parent, the old one's mappings end");
	for (i = 0, many_ok = true; i < 3000; i += 7) {
		uint64_t a = 0x100800 + 0x1000 * (uint64_t)i;
		struct dso *own = i % 2 ? B : A;

		many_ok = many_ok && at(&as, 8, a, 4000) == own &&
			  at(&as, 8, a, 6000) == (i >= 1000 && i < 2000 ? C : own);
	}
	check(many_ok, "3000 separate mappings, then one over a third of them: each page as it was when");
	for (i = 0, flips_ok = true; i < 2000; i += 37)
		flips_ok = flips_ok && at(&as, 6, 0x14800, 100 + 10 * i + 5) == (i % 2 ? B : A);
	check(flips_ok && at(&as, 6, 0x14800, 50) == C && at(&as, 6, 0x13800, 30000) == C &&
		      at(&as, 6, 0x15800, 30000) == C,
	      "2000 records of one page: each sample gets the one in force, the rest of C stays");
	check(at(&as, 5, 0x1800, 15) == A && at(&as, 5, 0x1800, 25) == NULL &&
		      at(&as, 5, 0x5800, 25) == B,
	      "jmmap exec: the image switches at the first exec-cause mapping");
	/* inside execve the registers still point into the image replaced */
	{
		const struct as_map *r4 = addrspace__find_replaced(&as, 1, 0x4800, 45),
				    *r2 = addrspace__find_replaced(&as, 1, 0x2800, 45);

		check(r4 && r4->dso == A && r2 && r2->dso == B,
		      "after an exec, an address nothing covers is found in the image it replaced");
	}
	check(!addrspace__find_replaced(&as, 1, 0x1800, 45),
	      "not where the new image maps something");
	check(!addrspace__find_replaced(&as, 1, 0x4800, 35), "not before any exec");
	check(addrspace__find_replaced(&as, 9, 0x1800, 25) &&
		      !addrspace__find_replaced(&as, 9, 0x1800, 35),
	      "not for a process forked under the pid after the exec");
	addrspace__release(&as);
	return tap_done();
}
