// SPDX-License-Identifier: GPL-2.0
/* browser: the interactive table on a terminal (browser.h), with ncurses. */
#include <errno.h>
#include <fcntl.h>
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "browser.h"
#include "browser-term.h"

/* perf's colours of a share: red from 5%, green from 0.5% */
#define PCT_RED 5.0
#define PCT_GREEN 0.5

#define KEY_ESC 27
#define KEY_CTRL_C 3
#define KEY_CTRL_U 21

/* One line of the body: an entry's row (text NULL) or a line of its call tree. */
struct bline {
	size_t entry;
	char *text;
};

struct browser {
	const struct browser_source *src;
	struct browser_query q;
	struct browser_data d;
	size_t width[SK_MAX];
	char columns[2048]; /* the line naming the columns */
	struct bline *lines;
	size_t nr, cap;
	struct hist_key *open; /* the entries whose call trees are open */
	size_t nr_open, cap_open;
	char zooms[3]; /* 'd', 't', 'p': the order they were set, to undo the last */
	size_t nr_zooms;
	char search[128];
	size_t top, cur; /* the first line shown, the line under the cursor */
	char msg[512];	 /* shown in the status line until the next key */
	bool colour;
	bool drawn; /* the first screen */
};

bool browser_zoom__equal(const struct browser_zoom *a, const struct browser_zoom *b)
{
	if (a->dso_set != b->dso_set || a->pid_set != b->pid_set || a->tid_set != b->tid_set)
		return false;
	if (a->dso_set && (a->anon != b->anon || strcmp(a->dso_path, b->dso_path) ||
			   !jrec_cookie_equal(&a->cookie, &b->cookie)))
		return false;
	return (!a->pid_set || a->pid == b->pid) && (!a->tid_set || a->tid == b->tid);
}

bool browser_zoom__keeps_task(const struct browser_zoom *z, uint32_t pid, uint32_t tid)
{
	return (!z->pid_set || pid == z->pid) && (!z->tid_set || tid == z->tid);
}

bool browser_zoom__keeps_dso(const struct browser_zoom *z, const struct resolved *res)
{
	if (!z->dso_set)
		return true;
	if (!z->anon)
		return res->dso && !strcmp(res->dso->path, z->dso_path) &&
		       jrec_cookie_equal(&res->dso->cookie, &z->cookie);
	return !res->dso && !strcmp(resolved__anon_name(res), z->dso_path);
}

static void free_lines(struct browser *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		free(b->lines[i].text);
	b->nr = 0;
}

/* @e's row as the stdio table prints it, without its newline. */
static const char *row_text(const struct browser *b, const struct hist_entry *e, char *buf,
			    size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	char *nl;

	buf[0] = '\0';
	if (!f)
		return buf;
	hist__print_row(b->d.h, e, b->d.m, b->width, f);
	fclose(f);
	buf[len - 1] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf;
}

static bool is_open(const struct browser *b, const struct hist_entry *e)
{
	size_t i;

	for (i = 0; i < b->nr_open; i++)
		if (hist__same_key(b->d.h, &b->open[i], &e->k))
			return true;
	return false;
}

/* Whether @e is shown under the search: its symbol (or its row without one) holds the text. */
static bool matches(const struct browser *b, const struct hist_entry *e)
{
	char buf[2048];

	if (!b->search[0])
		return true;
	if (b->d.h->has[SK_SYM])
		return strstr(hist__sym_name(&e->k, b->d.m->sym_params, buf, sizeof(buf)),
			      b->search) != NULL;
	return strstr(row_text(b, e, buf, sizeof(buf)), b->search) != NULL;
}

static int push_line(struct browser *b, size_t entry, char *text)
{
	if (array_grow(&b->lines, &b->cap, b->nr + 1)) {
		free(text);
		return -ENOMEM;
	}
	b->lines[b->nr].entry = entry;
	b->lines[b->nr++].text = text;
	return 0;
}

/* @e's call tree, the lines of -g, after its row. */
static int push_tree(struct browser *b, size_t entry)
{
	const struct hist_entry *e = &b->d.h->e[entry];
	char *text = NULL, *p, *nl;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err = 0;

	if (!f)
		return -errno;
	hist__print_graph(b->d.h, e, b->d.m->graph, f);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	for (p = text; *p && !err; p = nl + 1) {
		char *copy;

		nl = strchrnul(p, '\n');
		copy = strndup(p, (size_t)(nl - p));
		err = copy ? push_line(b, entry, copy) : -ENOMEM;
		if (!*nl)
			break;
	}
	free(text);
	return err;
}

/* The body's lines for the current data, search and open entries. */
static int layout(struct browser *b)
{
	const struct hist *h = b->d.h;
	size_t i, rows = 0;
	int err = 0;

	free_lines(b);
	/* a first screen: the entries in order so far */
	for (i = 0; i < (b->d.partial ? b->q.first : h->nr) && !err; i++) {
		const struct hist_entry *e = &h->e[i];

		if (hist__rank_pct(h, e) < b->d.m->percent_limit || !matches(b, e))
			continue;
		if (b->src->max_rows && rows == b->src->max_rows)
			break;
		rows++;
		err = push_line(b, i, NULL);
		if (!err && b->d.m->graph && e->tree != CT_NONE && is_open(b, e))
			err = push_tree(b, i);
	}
	if (b->cur >= b->nr)
		b->cur = b->nr ? b->nr - 1 : 0;
	return err;
}

/* The line of the entry with key @k, or @fallback. */
static size_t find_row(const struct browser *b, const struct hist_key *k, size_t fallback)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (!b->lines[i].text && hist__same_key(b->d.h, &b->d.h->e[b->lines[i].entry].k, k))
			return i;
	return fallback;
}

/* The data for the current query, its column widths and names, and the lines. */
static int rebuild(struct browser *b)
{
	char *text = NULL, *nl;
	size_t len = 0;
	FILE *f;
	int err = b->src->build(b->src->ctx, &b->q, &b->d);

	if (err)
		return err;
	hist__stdio_widths(b->d.h, b->d.m, b->width);
	f = open_memstream(&text, &len);
	if (!f)
		return -errno;
	hist__print_columns(b->d.h, b->d.m, b->width, f);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	/* "# Overhead  Command ...": the names without the comment mark */
	nl = strchrnul(text, '\n');
	*nl = '\0';
	snprintf(b->columns, sizeof(b->columns), "  %s", text[0] == '#' ? text + 2 : text);
	free(text);
	return layout(b);
}

static const struct hist_entry *cur_entry(const struct browser *b)
{
	return b->nr ? &b->d.h->e[b->lines[b->cur].entry] : NULL;
}

static const char *dso_text(const struct hist_key *k)
{
	return k->dso ? k->dso->path : k->anon ? k->anon : "[unknown]";
}

/* The title: what is counted, and what the view is narrowed to. */
static void title(const struct browser *b, char *buf, size_t len)
{
	const struct browser_zoom *z = &b->q.zoom;
	const struct hist *h = b->d.h;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s: Samples: %llu of event '%s', Event count (approx.): %llu",
			     b->src->name, (unsigned long long)h->total_samples, b->d.m->event,
			     (unsigned long long)h->total_period);
	if (n < len && z->pid_set)
		n += (size_t)snprintf(buf + n, len - n, "  Process: %s %u", z->pid_comm, z->pid);
	if (n < len && z->tid_set)
		n += (size_t)snprintf(buf + n, len - n, "  Thread: %s %u", z->tid_comm, z->tid);
	if (n < len && z->dso_set)
		n += (size_t)snprintf(buf + n, len - n, "  DSO: %s", z->dso_name);
	if (n < len && b->search[0])
		snprintf(buf + n, len - n, "  Search: %s", b->search);
}

/* The status line: the message, else the current line in full. */
static void status(const struct browser *b, char *buf, size_t len)
{
	const struct hist_entry *e = cur_entry(b);
	const struct bline *l = b->nr ? &b->lines[b->cur] : NULL;
	char sym[2048];

	if (b->msg[0])
		snprintf(buf, len, "%s", b->msg);
	else if (!e)
		snprintf(buf, len, "nothing to show; ? for help");
	else if (l->text)
		snprintf(buf, len, "%s", l->text + strspn(l->text, " |-"));
	else
		snprintf(buf, len, "[%c] %s  in %s  (%s %u/%u)", e->k.level,
			 hist__sym_name(&e->k, b->d.m->sym_params, sym, sizeof(sym)), dso_text(&e->k),
			 e->k.comm ? e->k.comm : "", e->k.pid, e->k.tid);
}

static int body_rows(void)
{
	return LINES > 3 ? LINES - 3 : 1;
}

static void draw(struct browser *b)
{
	int rows = body_rows(), y;
	char buf[4096];

	if (b->cur < b->top)
		b->top = b->cur;
	if (b->cur >= b->top + (size_t)rows)
		b->top = b->cur - (size_t)rows + 1;
	erase();
	title(b, buf, sizeof(buf));
	browser_term__put_line(0, buf, A_BOLD, false, 0, 0);
	browser_term__put_line(1, b->columns, A_NORMAL, false, 0, 0);
	for (y = 0; y < rows && b->top + (size_t)y < b->nr; y++) {
		size_t i = b->top + (size_t)y;
		const struct bline *l = &b->lines[i];
		const struct hist_entry *e = &b->d.h->e[l->entry];
		const char *text = l->text ? l->text : row_text(b, e, buf, sizeof(buf));
		int pct_cols = b->d.h->children ? 20 : 10;
		double pct = hist__rank_pct(b->d.h, e);
		int pair = pct >= PCT_RED ? PAIR_RED : pct >= PCT_GREEN ? PAIR_GREEN : 0;

		browser_term__put_line(2 + y, text, i == b->cur ? A_REVERSE : A_NORMAL, i == b->cur,
				       pct_cols, !l->text && b->colour ? (short)pair : 0);
	}
	status(b, buf, sizeof(buf));
	browser_term__put_line(LINES - 1, buf, A_REVERSE, true, 0, 0);
	refresh();
}

/* Read a line into @buf on the status line: true on Enter, false on Escape. */
static bool prompt(struct browser *b, const char *label, char *buf, size_t len)
{
	size_t n = strlen(buf);
	int ch;

	timeout(-1);
	curs_set(1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvprintw(LINES - 1, 0, "%s%s", label, buf);
		refresh();
		ch = getch();
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if (ch == KEY_ESC || ch == KEY_CTRL_C) {
			curs_set(0);
			return false;
		}
		if (ch == KEY_RESIZE) {
			draw(b);
		} else if (ch == KEY_CTRL_U) {
			buf[n = 0] = '\0';
		} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			if (n)
				buf[--n] = '\0';
		} else if (ch >= ' ' && ch < 256 && n + 1 < len) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
	curs_set(0);
	return true;
}

static const char *const help_text[] = {
	"Keys of the browser:",
	"",
	"  Up, Down, PgUp, PgDn, Home, End   move",
	"  Enter, +     open or close the entry's call tree (recordings made with -g)",
	"  /            show only the entries whose symbol holds a text (empty: all)",
	"  d            zoom into the entry's shared object, or back out",
	"  t            zoom into the entry's thread, or back out",
	"  p            zoom into the entry's process, or back out",
	"  Esc, Left    undo the last zoom",
	"  s            sort by other keys (as --sort)",
	"  P            print the view as shown, call trees opened, to jrec.hist.N",
	"  a            annotate the entry's function (jrec annotate, in $PAGER or less)",
	"  ?            this help",
	"  q            quit",
	"",
	"Press any key.",
};

static void help(void)
{
	size_t i;

	erase();
	for (i = 0; i < sizeof(help_text) / sizeof(help_text[0]); i++)
		mvaddnstr((int)i, 0, help_text[i], COLS);
	refresh();
	timeout(-1);
	while (getch() == KEY_RESIZE)
		;
}

/* P: the view, lines in full, into jrec.hist.N (the first N free). */
static void print_view(struct browser *b)
{
	char name[32], buf[4096];
	FILE *f = NULL;
	size_t i;
	int fd = -1, n;

	for (n = 0; n < 1000 && fd < 0; n++) {
		snprintf(name, sizeof(name), "jrec.hist.%d", n);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(b->msg, sizeof(b->msg), "cannot write %s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	title(b, buf, sizeof(buf));
	fprintf(f, "# %s\n#\n#%s\n", buf, b->columns + 1);
	for (i = 0; i < b->nr; i++) {
		const struct bline *l = &b->lines[i];

		fprintf(f, "%s\n", l->text ? l->text : row_text(b, &b->d.h->e[l->entry], buf, sizeof(buf)));
	}
	if (fclose(f))
		snprintf(b->msg, sizeof(b->msg), "cannot write %s: %s", name, strerror(errno));
	else
		snprintf(b->msg, sizeof(b->msg), "the view is in %s", name);
}

/* Open or close the current entry's call tree. */
static int toggle(struct browser *b)
{
	const struct hist_entry *e = cur_entry(b);
	struct hist_key k;
	size_t i;
	int err;

	if (!e)
		return 0;
	k = e->k;
	if (!b->d.m->graph && b->d.trees_later && !b->q.trees) {
		/* the first tree opened: the source counts them now */
		b->q.trees = true;
		err = rebuild(b);
		if (err)
			return err;
		b->cur = find_row(b, &k, b->cur);
	}
	if (!b->d.m->graph) {
		snprintf(b->msg, sizeof(b->msg), "no call chains to open: record with -g");
		return 0;
	}
	for (i = 0; i < b->nr_open; i++)
		if (hist__same_key(b->d.h, &b->open[i], &k))
			break;
	if (i < b->nr_open) {
		b->open[i] = b->open[--b->nr_open];
	} else {
		if (array_grow(&b->open, &b->cap_open, b->nr_open + 1))
			return -ENOMEM;
		b->open[b->nr_open++] = k;
	}
	err = layout(b);
	b->cur = find_row(b, &k, b->cur);
	return err;
}

/* d, t, p: zoom into the current entry's dso, thread or process, or back out of it. */
static int zoom(struct browser *b, char kind)
{
	struct browser_zoom *z = &b->q.zoom;
	const struct hist_entry *e = cur_entry(b);
	bool *set = kind == 'd' ? &z->dso_set : kind == 't' ? &z->tid_set : &z->pid_set;
	size_t i;

	if (*set) {
		*set = false;
		for (i = 0; i < b->nr_zooms && b->zooms[i] != kind; i++)
			;
		if (i < b->nr_zooms)
			memmove(&b->zooms[i], &b->zooms[i + 1], --b->nr_zooms - i);
	} else {
		if (!e)
			return 0;
		*set = true;
		if (kind == 'd') {
			z->anon = !e->k.dso;
			snprintf(z->dso_path, sizeof(z->dso_path), "%s", dso_text(&e->k));
			snprintf(z->dso_name, sizeof(z->dso_name), "%.*s",
				 (int)sizeof(z->dso_name) - 1,
				 e->k.dso ? e->k.dso->short_name : z->dso_path);
			memset(&z->cookie, 0, sizeof(z->cookie));
			if (e->k.dso)
				z->cookie = e->k.dso->cookie;
		} else if (kind == 't') {
			z->tid = e->k.tid;
			snprintf(z->tid_comm, sizeof(z->tid_comm), "%s", e->k.comm ? e->k.comm : "");
		} else {
			z->pid = e->k.pid;
			snprintf(z->pid_comm, sizeof(z->pid_comm), "%s", e->k.comm ? e->k.comm : "");
		}
		b->zooms[b->nr_zooms++] = kind;
	}
	b->cur = b->top = 0;
	return rebuild(b);
}

/* s: other sort keys, checked before the source is asked. */
static int resort(struct browser *b)
{
	char spec[sizeof(b->q.sort)], bad[64], label[160] = "Sort keys (";
	struct hist tmp = { 0 };
	int err, i;

	for (i = 0; i < SK_IPC; i++) {
		strcat(label, hist__key_name((enum sort_key)i));
		strcat(label, i + 1 < SK_IPC ? "," : "): ");
	}
	snprintf(spec, sizeof(spec), "%s", b->q.sort);
	if (!prompt(b, label, spec, sizeof(spec)))
		return 0;
	err = hist__set_sort(&tmp, spec, bad, sizeof(bad));
	hist__release(&tmp);
	if (err) {
		snprintf(b->msg, sizeof(b->msg), "unknown sort key '%s'", bad);
		return 0;
	}
	snprintf(b->q.sort, sizeof(b->q.sort), "%s", spec);
	b->nr_open = 0; /* the entries are other ones */
	b->cur = b->top = 0;
	return rebuild(b);
}

static void move_by(struct browser *b, long d)
{
	long c = (long)b->cur + d;

	if (c < 0)
		c = 0;
	if (b->nr && c >= (long)b->nr)
		c = (long)b->nr - 1;
	b->cur = b->nr ? (size_t)c : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A live source's refresh: the new counts, the cursor kept on its entry. */
static int refresh_live(struct browser *b)
{
	const struct hist_entry *e;
	struct hist_key k;
	bool have;
	int err = b->src->tick(b->src->ctx);

	if (err <= 0)
		return err;
	e = cur_entry(b);
	have = e != NULL;
	if (have)
		k = e->k;
	err = rebuild(b);
	if (!err && have)
		b->cur = find_row(b, &k, b->cur);
	return err;
}

/* One key: 1 to quit, else 0 or -errno. */
/*
 * a: the entry's function annotated by jrec annotate (this program run
 * again) on the recording, through $PAGER (else less -RS, which waits for q
 * however short the text); the browser gives the terminal back meanwhile and
 * takes it again after.
 */
static void annotate(struct browser *b)
{
	const struct hist_entry *e = cur_entry(b);
	void (*old_int)(int), (*old_quit)(int);
	int st = 0;
	pid_t pid;

	if (!b->src->file || !e || !e->k.sym) {
		snprintf(b->msg, sizeof(b->msg), "%s", !b->src->file ? "no annotate in this view"
								 : "the entry has no function to annotate");
		return;
	}
	def_prog_mode();
	endwin();
	/* a Ctrl-C there is the annotate's (and the pager's), not the browser's */
	old_int = signal(SIGINT, SIG_IGN);
	old_quit = signal(SIGQUIT, SIG_IGN);
	pid = fork();
	if (pid == 0) {
		const char *argv[12];
		int n = 0;

		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		/* less waits for q even when the text fits on the screen, then clears it */
		setenv("PAGER", "less -RS", 0);
		argv[n++] = "jrec";
		argv[n++] = "annotate";
		argv[n++] = "--stdio";
		argv[n++] = "-i";
		argv[n++] = b->src->file;
		if (b->src->symfs) {
			argv[n++] = "--symfs";
			argv[n++] = b->src->symfs;
		}
		if (e->k.dso) {
			argv[n++] = "--dsos";
			argv[n++] = e->k.dso->path;
		}
		argv[n++] = "--";
		argv[n++] = e->k.sym;
		argv[n] = NULL;
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, old_int);
	signal(SIGQUIT, old_quit);
	reset_prog_mode();
	clear();
	refresh();
	if (pid < 0)
		snprintf(b->msg, sizeof(b->msg), "cannot run jrec annotate: %s", strerror(errno));
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		snprintf(b->msg, sizeof(b->msg), "jrec annotate %s: exit status %d", e->k.sym,
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static int on_key(struct browser *b, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_CTRL_C:
		return 1;
	case KEY_UP:
	case 'k':
		move_by(b, -1);
		break;
	case KEY_DOWN:
	case 'j':
		move_by(b, 1);
		break;
	case KEY_PPAGE:
		move_by(b, -body_rows());
		break;
	case KEY_NPAGE:
	case ' ':
		move_by(b, body_rows());
		break;
	case KEY_HOME:
		b->cur = 0;
		break;
	case KEY_END:
		move_by(b, (long)b->nr);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case '+':
		return toggle(b);
	case '/':
		if (prompt(b, "Search symbols: ", b->search, sizeof(b->search))) {
			b->cur = b->top = 0;
			return layout(b);
		}
		break;
	case 'd':
	case 't':
	case 'p':
		return zoom(b, (char)ch);
	case KEY_ESC:
	case KEY_LEFT:
		if (b->nr_zooms)
			return zoom(b, b->zooms[b->nr_zooms - 1]);
		break;
	case 's':
		return resort(b);
	case 'P':
		print_view(b);
		break;
	case 'a':
		annotate(b);
		break;
	case '?':
	case 'h':
		help();
		break;
	case KEY_RESIZE:
		clear();
		break;
	default:
		break;
	}
	return 0;
}

int browser__run(const struct browser_source *src, const struct browser_query *q0)
{
	struct browser b = { .src = src, .q = *q0 };
	double next = now_ms() + src->interval_ms;
	SCREEN *scr = browser_term__take_early(&b.colour);
	int err;

	browser__use_locale(); /* this thread's, when another opened the terminal */
	/* with the screen's size known, the first screen's entries before the rest */
	b.q.first = scr ? (size_t)body_rows() : 0;
	err = rebuild(&b);
	if (!err && b.d.partial && b.nr < (size_t)body_rows()) {
		b.q.first = 0; /* rows left out (--percent-limit): all of them in order first */
		err = rebuild(&b);
	}
	if (err) {
		browser_term__close(scr);
		goto out;
	}
	if (!scr) {
		scr = browser_term__open(&b.colour);
		if (!scr) {
			err = -ENOTTY;
			goto out;
		}
	}
	for (;;) {
		int ch;

		draw(&b);
		if (!b.drawn) {
			/*
			 * the keypad's keys on with the first screen (ncurses
			 * would send it at the first read of a key)
			 */
			keypad(stdscr, TRUE);
			b.drawn = true;
		}
		if (b.d.partial) {
			/* the rest in order before a key can move past them; the screen stays */
			b.q.first = 0;
			err = rebuild(&b);
			if (err)
				break;
			continue;
		}
		if (src->tick) {
			double left = next - now_ms();

			timeout(left > 0 ? (int)left : 0);
		} else {
			timeout(-1);
		}
		ch = getch();
		if (ch == ERR && !src->tick) {
			err = -EIO; /* no terminal to read keys from any more */
			break;
		}
		if (ch != ERR && ch != KEY_RESIZE)
			b.msg[0] = '\0';
		if (ch != ERR)
			err = on_key(&b, ch);
		if (!err && src->tick && now_ms() >= next) {
			next = now_ms() + src->interval_ms;
			err = refresh_live(&b);
		}
		if (err)
			break;
	}
	browser_term__close(scr);
	if (err > 0)
		err = 0;
out:
	free_lines(&b);
	free(b.lines);
	free(b.open);
	return err;
}
