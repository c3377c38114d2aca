/* SPDX-License-Identifier: GPL-2.0 */
/*
 * browser: the interactive view of a histogram on a terminal (ncurses), as
 * perf report's and perf top's: the table with the stdio report's columns
 * (hist__print_row()), an entry's call tree opened in place with the lines
 * of -g (hist__print_graph()), a search, zooms into a shared object, a
 * thread or a process, another sort, the view printed to a file, colours by
 * share. The browser draws; its source counts (a callback builds the
 * histogram for a query), so the report and top feed it alike.
 */
#ifndef JREC_BROWSER_H
#define JREC_BROWSER_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

/*
 * What the view is narrowed to: each zoom on or off. By value, so that it
 * holds across the sessions of a live source (top opens one per refresh).
 */
struct browser_zoom {
	bool dso_set, pid_set, tid_set;
	bool anon;		/* anonymous memory named dso_path, else a file */
	char dso_path[512];	/* the file (its path and cookie) or the memory zoomed into */
	struct jrec_cookie cookie;
	char dso_name[128];	/* for the title */
	uint32_t pid, tid;
	char pid_comm[64], tid_comm[64]; /* their names, for the title */
};

/* Whether @a and @b narrow the view alike. */
bool browser_zoom__equal(const struct browser_zoom *a, const struct browser_zoom *b);
/* Whether @z keeps the samples of @pid/@tid, and a frame (or sample) at @res. */
bool browser_zoom__keeps_task(const struct browser_zoom *z, uint32_t pid, uint32_t tid);
bool browser_zoom__keeps_dso(const struct browser_zoom *z, const struct resolved *res);

struct browser_query {
	char sort[128]; /* the sort keys, as --sort takes them */
	struct browser_zoom zoom;
	bool trees;	/* count the call trees too (asked for when the first one is opened) */
	/*
	 * Only the first this many entries wanted in order yet (the first
	 * screen, drawn before the rest are sorted); 0: all of them.
	 */
	size_t first;
};

struct browser_data {
	const struct hist *h;	     /* sorted */
	const struct report_meta *m; /* m->graph NULL: no call trees to open */
	bool trees_later;	     /* m->graph NULL, but a query with trees gives them */
	bool partial;		     /* only the query's first entries are in order */
};

struct browser_source {
	const char *name; /* "jrec report", "jrec top" */
	/* The histogram for @q into *@d, valid until the next call: 0 or -errno. */
	int (*build)(void *ctx, const struct browser_query *q, struct browser_data *d);
	/*
	 * Live views: called every @interval_ms; 1 when build() now gives
	 * newer counts, 0 when not, -errno to end the browser.
	 */
	int (*tick)(void *ctx);
	int interval_ms;
	size_t max_rows; /* at most this many entries, 0: all */
	/* the recording, for 'a' (jrec annotate on it); NULL: no annotate */
	const char *file, *symfs;
	void *ctx;
};

/*
 * Whether standard input and output are a terminal and TERM names one, not
 * "dumb"; whether ncurses knows it is found when it is opened
 * (browser__ready()).
 */
bool browser__on_terminal(void);

/* That, and ncurses knows the terminal TERM names (its description read). */
bool browser__usable(void);

/*
 * The terminal's character encoding (LC_CTYPE from the environment) for the
 * calling thread alone; made by the first call.
 */
void browser__use_locale(void);

/*
 * Open the terminal ahead of browser__run(), from whichever thread has
 * nothing else to do while the report reads its recording: the kernel
 * symbols' thread once they are loaded, or the report's own while it would
 * wait for them (session.h, kernel_wait_work). Setting it up (its
 * description read, its character encoding made, modes set) is then off
 * the path to the first screen. The first call opens it, later ones do
 * nothing. The next browser__run() takes the
 * terminal over; browser__close_early() gives it back unused, before
 * anything is printed on the terminal (an error), and keeps a later call
 * from opening it. Nothing else may use the terminal in between. When it
 * was not opened early, browser__run() opens it itself.
 */
void browser__open_early(void);
void browser__close_early(void);

/*
 * Whether the terminal is there for browser__run(): opened early, or now
 * when it was not; false when ncurses does not know TERM.
 */
bool browser__ready(void);

/*
 * Run the browser on the terminal of standard input and output until the
 * user quits (q): 0, or the first -errno of the source or the terminal.
 */
int browser__run(const struct browser_source *src, const struct browser_query *q0);

#endif
