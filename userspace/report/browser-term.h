/* SPDX-License-Identifier: GPL-2.0 */
/*
 * browser-term: the terminal the browser draws on (browser.c): set up with
 * ncurses, or taken over from browser__open_early() (browser.h); its lines.
 */
#ifndef JREC_BROWSER_TERM_H
#define JREC_BROWSER_TERM_H

#include <ncurses.h>
#include <stdbool.h>

/* the colour pairs of a share: red from 5%, green from 0.5% (browser.c) */
enum { PAIR_RED = 1, PAIR_GREEN };

/*
 * The terminal set up for the browser: its screen, NULL when it cannot be;
 * @colour whether it has colours. The screen comes suspended (endwin()): the
 * first refresh shows it.
 */
SCREEN *browser_term__open(bool *colour);

/* @scr given back: the terminal as it was before browser_term__open(). NULL: nothing. */
void browser_term__close(SCREEN *scr);

/* The screen browser__open_early() opened, once it is open; NULL when there is none. The caller owns it. */
SCREEN *browser_term__take_early(bool *colour);

/*
 * @text on line @y, cut to the screen's width, in @attr, the line to its
 * end too when @whole, its first @ncol columns in colour pair @pair (0: none).
 */
void browser_term__put_line(int y, const char *text, attr_t attr, bool whole, int ncol, short pair);

#endif
