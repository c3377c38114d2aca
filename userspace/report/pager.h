/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager: text for a terminal goes through a pager, as perf's and git's
 * does: $PAGER, or `less -FRSX` where there is a less (it quits at once
 * when the text fits the screen, keeps colours, does not wrap lines). None
 * when standard output is not a terminal, or PAGER is empty or "cat".
 */
#ifndef JREC_PAGER_H
#define JREC_PAGER_H

#include <stdio.h>
#include <sys/types.h>

struct pager {
	pid_t pid; /* 0: no pager */
	FILE *out; /* what to write to: the pager's pipe, or stdout */
};

/*
 * Start the pager for standard output when it is a terminal; @p->out is
 * then where to write, stdout otherwise (and when the pager cannot be
 * started). 0, or -errno when the pipe or the process could not be made
 * (@p->out is stdout then too).
 */
int pager__start(struct pager *p);
/* Close the pipe and wait for the pager to quit; safe on a pager never started. */
void pager__finish(struct pager *p);

#endif
