/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calltree: call chains merged into trees of frames. Frames are interned
 * (one id per function, or per address when unresolved), and each tree is a
 * prefix tree of frame ids whose nodes count the period and the samples that
 * end at them (self) and that pass through them (total). One calltree holds
 * many trees, each under its own root: the report's call graph gives every
 * entry one (perf's -g), the flame graph outputs use a single one.
 */
#ifndef JREC_CALLTREE_H
#define JREC_CALLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve.h"

#define CT_NONE UINT32_MAX

enum ct_kind {
	CT_NATIVE,  /* code of a mapped file */
	CT_KERNEL,  /* the kernel and its modules */
	CT_JIT,	    /* named by a jitdump or a perf map */
	CT_PROCESS, /* the command a flame graph's stacks start from */
};

/* How symbols are shown: demangled (perf's default), with C++ parameter lists (-v), as recorded. */
enum sym_style { SYM_DEMANGLED = 0, SYM_PARAMS = 1, SYM_RAW = 2 };

struct ct_frame {
	const char *sym;  /* the symbol as recorded, NULL when unresolved (or a process) */
	const char *comm; /* CT_PROCESS: the command */
	struct dso *dso;
	const char *anon; /* "//anon", "[unknown]"... when dso is NULL */
	uint64_t addr;	  /* the first address seen; the key when unresolved */
	uint64_t sym_start;
	uint64_t hash;
	enum ct_kind kind;
	char level;
	bool plt;
	bool inlined; /* shown with " (inlined)", as perf's chains show such frames */
	char *name; /* as shown, made on first use by calltree__name() */
};

struct ct_node {
	uint32_t frame, parent;
	uint32_t child, next;	  /* first child, next sibling (CT_NONE: none) */
	uint64_t self, total;	  /* period ending here, passing through here */
	uint64_t self_n, total_n; /* the same in samples */
};

struct calltree {
	struct ct_frame *f;
	size_t nr_f, cap_f;
	uint32_t *fidx; /* open addressing into f[], fcap slots */
	size_t fcap;
	struct ct_node *n;
	size_t nr_n, cap_n;
	uint32_t *nidx; /* (parent, frame) -> node, ncap slots */
	size_t ncap;
	bool by_address; /* unresolved frames: one per address (perf's -g), else one per file */
	int sym_params; /* enum sym_style */
	uint64_t weight; /* the samples one add stands for (presum.h); 0 is 1 */
};

/* The frame id of a resolved address; -ENOMEM. */
int calltree__frame(struct calltree *t, const struct resolved *res, uint32_t *id);
/* The frame id of a process (a flame graph's first frame). */
int calltree__process(struct calltree *t, const char *comm, uint32_t *id);
/* A new, empty tree: its root node's id. */
int calltree__new_root(struct calltree *t, uint32_t *root);
/*
 * One sample's chain of @n frames, outermost first as given, under @root;
 * the node it ends at into *@leaf when @leaf is not NULL.
 */
int calltree__add(struct calltree *t, uint32_t root, const uint32_t *frames, size_t n,
		  uint64_t period, uint32_t *leaf);
/* One more sample of the chain that calltree__add() ended at @leaf. */
void calltree__add_again(struct calltree *t, uint32_t leaf, uint64_t period);
/*
 * The children of @node, most period first (ties: by file, then the higher
 * address first, as perf), into
 * *out (grown as needed, freed by the caller); their number, or -ENOMEM.
 */
long calltree__children(const struct calltree *t, uint32_t node, uint32_t **out, size_t *cap);
/* The same, ordered only as perf orders equals when @by_total is false. */
long calltree__children_sorted(const struct calltree *t, uint32_t node, bool by_total,
			       uint32_t **out, size_t *cap);
/* The frame's name as shown: demangled, "@plt", or its address or file when unresolved. */
const char *calltree__name(struct calltree *t, uint32_t frame);
/*
 * The nodes under @root in depth-first order, each before its children,
 * children most samples first: calls @fn for each with its depth (1 for the
 * command) and stops at its first non-zero return.
 */
int calltree__walk(struct calltree *ct, uint32_t root,
		   int (*fn)(struct calltree *ct, uint32_t node, int depth, void *arg), void *arg);
/*
 * The frames from the command down to @node, for a walk's callback: path[0]
 * the command, path[depth - 1] @node's frame.
 */
struct flame_path {
	uint32_t *frames;
	size_t cap;
};
int flame_path__set(struct flame_path *p, const struct calltree *ct, uint32_t node, int depth);

void calltree__release(struct calltree *t);

#endif
