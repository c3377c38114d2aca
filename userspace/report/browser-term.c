// SPDX-License-Identifier: GPL-2.0
/*
 * browser-term: the browser's terminal (browser-term.h), set up with
 * ncurses, by a thread with nothing else to do while the report reads its
 * recording (browser__open_early()), or at once; and its lines put in.
 */
#include <locale.h>
#include <ncurses.h>
#include <pthread.h>
#include <term.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser.h"
#include "browser-term.h"

bool browser__on_terminal(void)
{
	const char *t = getenv("TERM");

	return t && *t && strcmp(t, "dumb") && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

bool browser__usable(void)
{
	int err;

	if (!browser__on_terminal() || setupterm(NULL, STDOUT_FILENO, &err) != OK)
		return false;
	del_curterm(cur_term);
	return true;
}

SCREEN *browser_term__open(bool *colour)
{
	SCREEN *scr;

	browser__use_locale(); /* before newterm: it takes the encoding from the locale */
	/* newterm, not initscr: an unknown TERM is an error to return, not an exit */
	scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return NULL;
	raw();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	*colour = false;
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		init_pair(PAIR_RED, COLOR_RED, -1);
		init_pair(PAIR_GREEN, COLOR_GREEN, -1);
		*colour = true;
	}
	/*
	 * Handed over suspended: the first refresh brings the browser's screen
	 * up. Until then the terminal stays as it was, for the report's progress
	 * and error lines. And ncurses writes a screen that was never suspended
	 * out at every cursor move: some ninety writes for the first one, where
	 * one resumed takes one.
	 */
	endwin();
	return scr;
}

void browser_term__close(SCREEN *scr)
{
	if (!scr)
		return;
	if (!isendwin())
		endwin();
	delscreen(scr);
}

/*
 * The terminal opened by browser__open_early(), until browser__run() takes
 * it. The lock makes the opening and the taking one after the other, and
 * the first of them the only opening: a take before any opening stops it.
 */
static struct {
	pthread_mutex_t lock;
	bool settled; /* opened, or no longer to be */
	SCREEN *scr;
	bool colour;
} early = { .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * The characters' encoding for ncursesw: LC_CTYPE from the environment,
 * made once and used by each thread that draws or opens the terminal
 * (uselocale()), so that making it (reading the locale's data) falls to the
 * thread that opens the terminal early, and no thread changes the locale
 * under another. Numbers stay as the stdio report prints them.
 */
static pthread_once_t locale_once = PTHREAD_ONCE_INIT;
static locale_t term_locale;

static void make_locale(void)
{
	term_locale = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
}

void browser__use_locale(void)
{
	pthread_once(&locale_once, make_locale);
	if (term_locale)
		uselocale(term_locale);
}

bool browser__ready(void)
{
	bool ready;

	pthread_mutex_lock(&early.lock);
	if (!early.settled)
		early.scr = browser_term__open(&early.colour);
	early.settled = true;
	ready = early.scr != NULL;
	pthread_mutex_unlock(&early.lock);
	return ready;
}

void browser__open_early(void)
{
	browser__ready();
}

SCREEN *browser_term__take_early(bool *colour)
{
	SCREEN *scr;

	pthread_mutex_lock(&early.lock);
	scr = early.scr;
	*colour = early.colour;
	early.scr = NULL;
	early.settled = true;
	pthread_mutex_unlock(&early.lock);
	return scr;
}

void browser__close_early(void)
{
	bool colour;

	browser_term__close(browser_term__take_early(&colour));
}

/*
 * @text on line @y, cut to the screen's width, in @attr, the line to its
 * end too when @whole, its first @ncol columns in colour pair @pair (0:
 * none): the cells that waddnstr() and mvchgat() make of it, put in at
 * once (waddchnstr()) when it is printable ASCII, where waddnstr() would
 * decode it a byte at a time in the locale's encoding; else through them.
 */
void browser_term__put_line(int y, const char *text, attr_t attr, bool whole, int ncol, short pair)
{
	chtype cells[512];
	int n, k, cols = COLS;

	if (ncol > cols)
		ncol = cols;
	for (n = 0; n < cols && (unsigned char)text[n] >= 0x20 && (unsigned char)text[n] < 0x7f; n++)
		;
	if ((n < cols && text[n]) || cols > (int)(sizeof(cells) / sizeof(cells[0]))) {
		attron(attr);
		mvaddnstr(y, 0, text, cols);
		if (whole)
			mvchgat(y, 0, -1, attr, 0, NULL);
		if (pair)
			mvchgat(y, 0, ncol, attr, pair, NULL);
		attroff(attr);
		return;
	}
	for (k = 0; k < n || (whole && k < cols) || (pair && k < ncol); k++)
		cells[k] = (k < n ? (chtype)(unsigned char)text[k] : ' ') | attr |
			   (pair && k < ncol ? COLOR_PAIR(pair) : 0);
	mvaddchnstr(y, 0, cells, k);
}
