/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist: samples aggregated by the report's sort keys, with perf's column
 * conventions for the table and a documented JSON form
 * (Documentation/report-json.rst).
 */
#ifndef JREC_HIST_H
#define JREC_HIST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "calltree.h"
#include "resolve.h"

enum sort_key { SK_COMM, SK_PID, SK_TID, SK_DSO, SK_SYM, SK_SRCLINE, SK_BUILDID, SK_STATE, SK_CPU,
		SK_SRCFILE, SK_PARENT, SK_DSO_FROM, SK_SYM_FROM, SK_DSO_TO, SK_SYM_TO, SK_CYCLES,
		SK_IPC, /* perf's IPC column, never typed: hist__add_ipc() */
		SK_MAX };

/* The table's numbers, as columns beside the sort keys (-F, the order of rows). */
enum hist_field { HF_OVERHEAD = SK_MAX, HF_CHILDREN, HF_SAMPLE, HF_PERIOD, HIST_COLS };

/* Whether @k is one of the branch view's keys (a branch's source, target or cycles). */
static inline bool sort_key__is_branch(int k)
{
	return k >= SK_DSO_FROM && k <= SK_CYCLES;
}

/* perf pads the last column to its width when it is a file's or the cycles, not otherwise */
static inline bool hist__padded_last(int k)
{
	return k == SK_DSO || k == SK_DSO_FROM || k == SK_DSO_TO || k == SK_CYCLES || k == SK_IPC;
}

/* One end of a branch (the branch view): its file and function, as a sample's own. */
struct hist_side {
	struct dso *dso;
	const char *anon;
	const char *sym;
	uint64_t sym_start;
	bool sym_by_name, plt;
	uint64_t addr; /* when sym is NULL */
	char level;
};


struct hist_key {
	const char *comm;
	uint32_t pid, tid;
	struct dso *dso;
	const char *anon; /* when dso is NULL */
	const char *sym;
	/*
	 * where sym starts (a file's address; JIT and kernel: the run-time one):
	 * two local functions of one name are two entries, as in perf; JIT code
	 * and inlined functions are one entry a name (sym_by_name), whose
	 * sym_start is the first one seen
	 */
	uint64_t sym_start;
	bool sym_by_name;
	bool plt;
	uint64_t addr; /* when sym is NULL */
	const char *srcline;
	const char *state; /* the task state (offcpu.h's OFFCPU_STATE_*), a constant */
	const char *srcfile; /* srcline's file, "" when no line table has it */
	int32_t cpu;	     /* -1 when the samples carry none */
	const char *parent;  /* the first frame matching -p's pattern (interned), or "[other]" */
	char level;
	struct hist_side from, to; /* the branch view: a branch's ends */
	uint16_t cycles;	   /* and its basic block's cycles, 0: unknown */
};

struct hist_entry {
	struct hist_key k;
	uint64_t hash;
	uint64_t period, samples; /* self: samples whose own address is this entry */
	uint64_t children; /* period of the samples with this entry anywhere in their call chain */
	uint64_t stamp;    /* the sample that last added to children */
	/*
	 * --children: the most frames of a sample's chain from this entry on,
	 * in the order the chain was walked (perf's callchain max_depth)
	 */
	uint32_t depth;
	uint32_t tree;     /* -g: the root of its call tree in graph_opts.ct, CT_NONE if none */
	uint32_t made;     /* the entries made before it: hist__sort()'s order of their making */
	uint64_t tree_stamp; /* the sample that last added to the tree */
	/*
	 * the thread's last command, or NULL: the pid key's name, and the comm
	 * key's width (hist__cell_width())
	 */
	const char *thread_comm;
	uint64_t thread_time; /* hist__note_thread(): the earliest sample's, whose thread k names */
	uint64_t first_time; /* hist__note_level(): the time of the earliest sample, whose level it shows */
	/* the IPC column (branch-ipc.h): its target function's IPC and coverage (%) */
	double ipc, ipc_cover;
};

/*
 * The pid key's command of @e: its thread's last, else the one of its
 * samples. An entry's thread is the one of its earliest sample, as perf's
 * (its entry's first sample, in time order), when the key is not the thread.
 */
static inline const char *hist_entry__thread_comm(const struct hist_entry *e)
{
	return e->thread_comm ? e->thread_comm : e->k.comm ? e->k.comm : "";
}

/* What could not be symbolized, by file (or anonymous region) and reason. */
struct unres_entry {
	struct dso *dso;
	const char *anon;
	enum dso_status why;
	uint64_t period, samples;
};

struct hist {
	enum sort_key keys[SK_MAX];
	size_t nr_keys;
	bool has[SK_MAX];
	struct hist_entry *e;
	size_t nr, cap;
	uint32_t *idx; /* open-addressing index into e[], cap slots */
	struct unres_entry *u;
	size_t nr_u, cap_u;
	struct unres_entry *img; /* mapped files whose code JIT records named */
	size_t nr_img, cap_img;
	uint64_t total_period, total_samples;
	bool children; /* perf's --children: entries ranked by the period of their call chains */
	uint64_t seq;  /* the current sample, for hist__add_chain() */
	uint64_t weight; /* the samples one add stands for (presum.h); 0 is 1 */
	uint32_t flame_root; /* the flame graph outputs' tree of this event, CT_NONE if none */
	/*
	 * hist__sort()'s order, as perf's: the columns (sort keys and enum
	 * hist_field numbers) the rows are ranked by, in order (-F's); none:
	 * perf report's default, Children (--children), Overhead, the keys,
	 * Samples (-n)
	 */
	int rank[HIST_COLS];
	size_t nr_rank;
	int sym_style;	   /* functions by their names as shown (enum sym_style) */
	bool rank_samples; /* -n: by the samples too, after the keys */
	/*
	 * --children with call chains: of one thread's entries of equal
	 * children, the deeper first (1, chains walked from the caller) or the
	 * shallower (-1, from the callee): the caller above its callees; 0: not
	 */
	int depth_order;
};

/* The key of a sample of @pid/@tid running @comm at @res (no srcline, no state). */
void hist_key__set(struct hist_key *k, const char *comm, uint32_t pid, uint32_t tid,
		   const struct resolved *res);
/* One end of a branch resolved at @res. */
void hist_side__set(struct hist_side *side, const struct resolved *res);
/* The sort key's name as --sort spells it. */
const char *hist__key_name(enum sort_key k);
/* "comm,dso,sym" -> keys. -EINVAL with the bad key in @bad. */
int hist__set_sort(struct hist *h, const char *spec, char *bad, size_t badlen);
/*
 * perf's IPC column, which perf report adds at the end of a --sort that
 * names "symbol" (symbol, symbol_from, symbol_to): entries told apart by
 * their own function (the branch's target in the branch view, @lbr), each
 * with the instructions per cycle of the branches' basic blocks there.
 */
void hist__add_ipc(struct hist *h);
/*
 * Entry @e's IPC cell: "-      -" outside the branch view (perf's column
 * without branches); in it, "-" for a target no function names, else the
 * IPC and the share of the function's instructions its branches' blocks
 * cover (branch_ipc__fill()), into @buf.
 */
const char *hist__ipc_cell(const struct hist_entry *e, char *buf, size_t len);
/* A sample's own address: self period, and a new sample for hist__add_chain(). */
int hist__add(struct hist *h, const struct hist_key *k, uint64_t period);
/* The same, and the entry's index in *@idx: it stays the entry's until the hist is freed. */
int hist__add_at(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t *idx);
/* The same, for the entry at @idx (from hist__add_at()). */
void hist__add_idx(struct hist *h, uint32_t idx, uint64_t period);
/*
 * A sample that counts in the totals but has no entry of its own (-S left
 * its symbol out); its call chain's entries may still be added.
 */
void hist__count(struct hist *h, uint64_t period);
/*
 * An entry of the current sample's call chain (the sample's own entry too):
 * its children period grows by @period once per sample, however often the
 * chain passes through it (recursion); @depth is the number of the chain's
 * frames from this one on, in the order the chain is walked (its first
 * place), the whole chain's for the sample's own entry.
 */
int hist__add_chain(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t depth);
/* The same, and the entry's index in *@idx: it stays the entry's until the hist is freed. */
int hist__add_chain_at(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t depth,
		       uint32_t *idx);
/* The same, for the entry at @idx (from hist__add_chain_at()). */
void hist__add_chain_idx(struct hist *h, uint32_t idx, uint64_t period, uint32_t depth);
/*
 * Entry @idx, whose key leaves the level out (as perf's), added to at @time
 * in mode @level: it shows the mode of its earliest sample, as perf's does,
 * which reads the samples in time order. For the entries whose level can
 * differ between samples: a frame no mapping covers, a branch's target.
 */
void hist__note_level(struct hist *h, uint32_t idx, char level, uint64_t time);
/* A sample of @pid/@tid at @time added to entry @idx: its thread, when the earliest. */
void hist__note_thread(struct hist *h, uint32_t idx, uint32_t pid, uint32_t tid, uint64_t time);
/*
 * -g: the chain @frames (in the call graph's order) of the current sample
 * added to the call tree of @k's entry, once per sample.
 */
int hist__add_tree(struct hist *h, const struct hist_key *k, struct calltree *ct,
		   const uint32_t *frames, size_t n, uint64_t period);
int hist__add_unresolved(struct hist *h, struct dso *d, const char *anon, enum dso_status why,
			 uint64_t period);
/* A sample in a mapped file without ELF symbols, named by a JIT record. */
int hist__add_image(struct hist *h, struct dso *d, uint64_t period);
/* Whether @a and @b are one entry under @h's sort keys. */
bool hist__same_key(const struct hist *h, const struct hist_key *a, const struct hist_key *b);
/*
 * The entries in perf report's order (hist-sort.c): highest share first;
 * of equal share, by the sort keys in their order, each as perf sorts it
 * (names in byte order, numbers rising, branch files and cycles falling,
 * what is missing last), then as perf tells them apart (a function by its
 * address), then in the order they were made.
 */
void hist__sort(struct hist *h);
/*
 * The first @k entries of hist__sort()'s order, in it, at the front of
 * @h's, the others after them (a screen's worth drawn before the whole is
 * sorted; hist__sort() after it sorts all). -EAGAIN when that order cannot
 * be told without the whole sort (entries of equal rank among them, a
 * comparison that is not an order, @k + 1 entries or fewer): @h's as it
 * was; -ENOMEM.
 */
int hist__sort_first(struct hist *h, size_t k);
/*
 * perf's order of an event group's table (out-group.c): @nr rows of the
 * @n hists @hs (the leader first, each sorted), row i's entries at
 * @of[i * n], NULL where a member has none; a row that only later members
 * have is perf's dummy entry of the leader. The leader's Children (then
 * its caller-above-callee rule), each member's Self, the keys, with perf's
 * trees. The rows' indices in that order into @order; -ENOMEM.
 */
int hist__sort_group(const struct hist *const *hs, size_t n, const struct hist_entry *const *of,
		     size_t nr, uint32_t *order);
void hist__release(struct hist *h);

/* perf's -g: how the call tree under each entry is printed */
enum graph_mode { GRAPH_NONE, GRAPH_GRAPH, GRAPH_FLAT, GRAPH_FOLDED };

struct graph_opts {
	enum graph_mode mode;
	bool caller;     /* outermost caller first; else the sampled function first */
	bool order_set;  /* caller or callee given; else as perf: caller with --children */
	double min_pct;  /* hide branches below this share of all samples */
	bool skip_first; /* --sort starts with sym: the first frame is the entry itself */
	struct calltree *ct;
};

/* "graph,caller,0.5" and the like; -EINVAL. */
int graph_opts__parse(struct graph_opts *g, const char *spec);
/* The call tree of entry @e (hist-graph.c). */
void hist__print_graph(const struct hist *h, const struct hist_entry *e,
		       const struct graph_opts *g, FILE *out);

struct report_meta {
	const char *file;
	const char *event;
	uint64_t nr_samples_total; /* before filters */
	uint64_t lost;
	const char *cut_short;     /* NULL when complete */
	const char *mode;          /* jmmap / fallback / "" for perf files */
	const char *ksyms_source;
	const char *kernel_release;
	const char *kernel_build_id; /* hex, "" when unknown */
	uint64_t kernel_text;
	bool show_nr_samples;
	double percent_limit;
	bool section_only; /* stdio: the next event's table, without the file's header */
	bool events_plural; /* the title says "of events" (a group's table) */
	const struct graph_opts *graph; /* -g, or NULL */
	int sym_params; /* enum sym_style */
	const char *field_sep; /* -t: columns apart by this, unaligned, no rule lines */
	const struct hist_fields *fields; /* -F: the columns and their order, NULL: perf's default */
	/*
	 * the value a filter pins a key to (--comm, --dsos, --symbols of one
	 * value), NULL: none; its column is left out (hist__hidden()) and the
	 * header says "# comm: VALUE", as perf report's
	 */
	const char *pin[SK_MAX];
};

/*
 * Whether key @k's column of @h is left out: a filter pins it to one value
 * (m->pin), unless every key is pinned, which perf shows all the same.
 */
bool hist__hidden(const struct hist *h, const struct report_meta *m, enum sort_key k);

/* The table in perf report --stdio's layout, perf's default columns (-F's: hist__print_fields_stdio()). */
void hist__print_stdio(const struct hist *h, const struct report_meta *m, FILE *out);

/* perf report -F: the table's columns, numbers and sort keys in any order (out-fields.c). */
struct hist_fields {
	int col[HIST_COLS]; /* a sort_key or an enum hist_field */
	size_t nr;
	/*
	 * perf's sort list with -F: the columns the rows are ranked by, in
	 * order: --sort's keys, then the columns not among them; without
	 * --sort, the columns
	 */
	int rank[HIST_COLS];
	size_t nr_rank;
};
/*
 * "overhead,sym,sample" into @f: perf's names (overhead, overhead_children,
 * sample, period, the sort keys); the sort keys of @sort (NULL: none) not
 * named are added at the end, as perf does. -EINVAL with the bad name in @bad.
 */
int hist_fields__parse(struct hist_fields *f, const char *spec, const char *sort, char *bad,
		       size_t badlen);
/* The sort keys among @f's columns, comma-separated, into @buf; "" when none. */
void hist_fields__keys(const struct hist_fields *f, char *buf, size_t len);
/* Whether @f has @col. */
bool hist_fields__has(const struct hist_fields *f, int col);
/*
 * The table with m->fields' columns in their order, rows ranked by them in
 * that order (numbers highest first, names in byte order), as perf's -F.
 */
void hist__print_fields_stdio(const struct hist *h, const struct report_meta *m, FILE *out);
/*
 * perf report --group: the @n histograms of one event group's members
 * (leader first) in one table, a column of each member's share side by side,
 * entries ranked by the leader's and then the next member's; @name is the
 * group's as perf prints it ("anon group { cpu-clock, task-clock }").
 */
void hist__print_group_stdio(const struct hist *const *hs, size_t n, const char *name,
			     const struct report_meta *m, FILE *out);
/* One cell's text for key @key of entry @e, in @buf if it needs one; the keys' column titles. */
const char *hist__cell(const struct hist_entry *e, enum sort_key key, int style, char *buf,
		       size_t len);
extern const char *const hist__headers[SK_MAX];
/*
 * The width entry @e asks of key @key's column: its cell's length, but the
 * length of the last command of the entry's thread for the comm key, as
 * perf sizes its Command column (a command a thread ran before an exec into
 * a shorter name is cut to the column's width).
 */
size_t hist__cell_width(const struct hist_entry *e, enum sort_key key, int style);
/* The most of a key's cell a column of @width shows: all of it but the comm key's. */
static inline int hist__cell_prec(enum sort_key key, size_t width)
{
	return key == SK_COMM ? (int)width : INT_MAX;
}
/* A row's cells after its numbers: each key's, padded to @width but the last, and the newline. */
void hist__print_cells(const struct hist *h, const struct hist_entry *e,
		       const struct report_meta *m, const size_t width[SK_MAX], FILE *out);
/* "# LABEL: N" with perf's unit (7975 as "7K") */
void hist__print_count(FILE *out, const char *label, uint64_t n);
/*
 * The table's pieces, for views that lay it out themselves (the browser):
 * the header lines above the columns, each column's width over the entries
 * shown, the two lines naming the columns, one entry's row.
 */
void hist__print_title(const struct hist *h, const struct report_meta *m, FILE *out);
void hist__stdio_widths(const struct hist *h, const struct report_meta *m, size_t width[SK_MAX]);
void hist__print_columns(const struct hist *h, const struct report_meta *m,
			 const size_t width[SK_MAX], FILE *out);
void hist__print_row(const struct hist *h, const struct hist_entry *e, const struct report_meta *m,
		     const size_t width[SK_MAX], FILE *out);
/*
 * One JSON document: the first event's report at the top level, the others
 * (a recording of several events) in "other_events".
 */
void hist__print_json(const struct hist *const *hs, const char *const *events, size_t n,
		      const struct report_meta *m, FILE *out);
/* @v as a percentage of @total (0 when there is nothing). */
static inline double hist__pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* The share an entry is ranked and limited by: children in --children mode, else self. */
double hist__rank_pct(const struct hist *h, const struct hist_entry *e);
/* The symbol as shown: demangled, with "@plt"; into buf. */
const char *hist__sym_name(const struct hist_key *k, int style, char *buf, size_t len);

#endif
