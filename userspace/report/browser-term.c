// SPDX-License-Identifier: GPL-2.0
/*
 * browser-term: the browser's terminal (browser-term.h), set up with
 * ncurses, by a thread with nothing else to do while the report reads its
 * recording (browser__open_early()), or at once.
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

void browser__open_early(void)
{
	pthread_mutex_lock(&early.lock);
	if (!early.settled)
		early.scr = browser_term__open(&early.colour);
	early.settled = true;
	pthread_mutex_unlock(&early.lock);
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
