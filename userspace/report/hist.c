// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "demangle.h"
#include "hist.h"

static const char *const key_names[SK_MAX] = {
	"comm", "pid",	   "tid",    "dso",	    "sym",	   "srcline",	"buildid", "state",
	"cpu",	"srcfile", "parent", "dso_from", "symbol_from", "dso_to", "symbol_to", "cycles",
	"ipc"
};

void hist__add_ipc(struct hist *h)
{
	if (!h->has[SK_IPC] && h->nr_keys < SK_MAX) {
		h->has[SK_IPC] = true;
		h->keys[h->nr_keys++] = SK_IPC;
	}
}

const char *hist__ipc_cell(const struct hist_entry *e, char *buf, size_t len)
{
	if (!e->k.to.level) /* not a branch's */
		return "-      -";
	if (!e->k.sym)
		return "-";
	/* perf's: no cycles, no code: no instruction counted, none covered */
	snprintf(buf, len, "%-5.2f [%5.1f%%]", e->ipc, e->ipc_cover);
	return buf;
}

const char *hist__key_name(enum sort_key k)
{
	return k < SK_MAX ? key_names[k] : "?";
}

int hist__set_sort(struct hist *h, const char *spec, char *bad, size_t badlen)
{
	const char *p = spec;

	h->nr_keys = 0;
	memset(h->has, 0, sizeof(h->has));
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < SK_IPC; i++)
			if (strlen(key_names[i]) == n && !strncmp(p, key_names[i], n))
				break;
		if (i == SK_IPC)
			i = SK_MAX;
		if (n == 6 && !strncmp(p, "symbol", n)) /* perf's name */
			i = SK_SYM;
		if (i == SK_MAX) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -EINVAL;
		}
		if (!h->has[i]) {
			h->has[i] = true;
			h->keys[h->nr_keys++] = (enum sort_key)i;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (!h->nr_keys) {
		snprintf(bad, badlen, "(empty)");
		return -EINVAL;
	}
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t side_hash(uint64_t x, const struct hist_side *sd, bool dso, bool sym)
{
	if (dso || (sym && !sd->sym))
		x = mix(x, (uintptr_t)sd->dso ^ (uintptr_t)sd->anon);
	if (sym) {
		x = mix(x, sd->sym ? (uintptr_t)sd->sym ^ (sd->sym_by_name ? 0 : sd->sym_start)
				   : sd->addr);
		x = mix(x, (uint64_t)sd->plt << 8 | (uint8_t)(sd->sym ? sd->level : 0));
	}
	return x;
}

static bool side_eq(const struct hist_side *a, const struct hist_side *b, bool dso, bool sym)
{
	if ((dso || (sym && !a->sym)) && (a->dso != b->dso || a->anon != b->anon))
		return false;
	if (!sym)
		return true;
	if (!a->sym != !b->sym || a->plt != b->plt || (a->sym && a->level != b->level))
		return false;
	return a->sym ? a->sym == b->sym && a->sym_by_name == b->sym_by_name &&
				(a->sym_by_name || a->sym_start == b->sym_start)
		      : a->addr == b->addr;
}

void hist_side__set(struct hist_side *side, const struct resolved *res)
{
	struct hist_key k;

	/* a sample's own address's fields, the one rule for both */
	hist_key__set(&k, NULL, 0, 0, res);
	*side = (struct hist_side){ k.dso,	   k.anon, k.sym,  k.sym_start,
				    k.sym_by_name, k.plt,  k.addr, k.level };
}

/* The function of @k, or its address when it has none */
static uint64_t function_hash(const struct hist_key *k)
{
	return k->sym ? (uintptr_t)k->sym ^ (k->sym_by_name ? 0 : k->sym_start) : k->addr;
}

static bool same_function(const struct hist_key *a, const struct hist_key *b)
{
	if (!a->sym != !b->sym)
		return false;
	return a->sym ? a->sym == b->sym && a->sym_by_name == b->sym_by_name &&
				(a->sym_by_name || a->sym_start == b->sym_start)
		      : a->addr == b->addr;
}

static uint64_t key_hash(const struct hist *h, const struct hist_key *k)
{
	uint64_t x = 1;

	x = side_hash(x, &k->from, h->has[SK_DSO_FROM], h->has[SK_SYM_FROM]);
	x = side_hash(x, &k->to, h->has[SK_DSO_TO], h->has[SK_SYM_TO]);
	if (h->has[SK_CYCLES])
		x = mix(x, k->cycles);

	if (h->has[SK_COMM])
		x = mix(x, (uintptr_t)k->comm);
	if (h->has[SK_PID]) /* perf's pid key: the thread */
		x = mix(mix(x, k->pid), k->tid);
	if (h->has[SK_TID])
		x = mix(x, k->tid);
	if (h->has[SK_DSO] || h->has[SK_BUILDID] || (h->has[SK_SYM] && !k->sym))
		x = mix(x, (uintptr_t)k->dso ^ (uintptr_t)k->anon);
	if (h->has[SK_SYM])
		x = mix(mix(x, function_hash(k)), (uint64_t)k->plt);
	if (h->has[SK_IPC]) /* perf's: by the function alone, or the unnamed address */
		x = mix(x, function_hash(k));
	if (h->has[SK_SRCLINE])
		x = mix(x, (uintptr_t)k->srcline);
	if (h->has[SK_STATE])
		x = mix(x, (uintptr_t)k->state);
	if (h->has[SK_SRCFILE])
		x = mix(x, (uintptr_t)k->srcfile);
	if (h->has[SK_CPU])
		x = mix(x, (uint32_t)k->cpu);
	if (h->has[SK_PARENT])
		x = mix(x, (uintptr_t)k->parent);
	return x;
}

static bool key_eq(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	if (!side_eq(&a->from, &b->from, h->has[SK_DSO_FROM], h->has[SK_SYM_FROM]) ||
	    !side_eq(&a->to, &b->to, h->has[SK_DSO_TO], h->has[SK_SYM_TO]))
		return false;
	if (h->has[SK_CYCLES] && a->cycles != b->cycles)
		return false;
	if (h->has[SK_COMM] && a->comm != b->comm)
		return false;
	if (h->has[SK_PID] && (a->pid != b->pid || a->tid != b->tid))
		return false;
	if (h->has[SK_TID] && a->tid != b->tid)
		return false;
	if ((h->has[SK_DSO] || h->has[SK_BUILDID] || (h->has[SK_SYM] && !a->sym)) &&
	    (a->dso != b->dso || a->anon != b->anon))
		return false;
	/* as perf's: one entry whatever the mode it was seen in (a frame no
	 * mapping covers, a branch's target); the level shown is the earliest
	 * sample's (hist__note_level()) */
	if (h->has[SK_SYM] && (a->plt != b->plt || !same_function(a, b)))
		return false;
	if (h->has[SK_IPC] && !same_function(a, b))
		return false;
	if (h->has[SK_SRCLINE] && a->srcline != b->srcline)
		return false;
	if (h->has[SK_STATE] && a->state != b->state)
		return false;
	if (h->has[SK_SRCFILE] && a->srcfile != b->srcfile)
		return false;
	if (h->has[SK_CPU] && a->cpu != b->cpu)
		return false;
	if (h->has[SK_PARENT] && a->parent != b->parent)
		return false;
	return true;
}

void hist_key__set(struct hist_key *k, const char *comm, uint32_t pid, uint32_t tid,
		   const struct resolved *res)
{
	memset(k, 0, sizeof(*k));
	k->comm = comm;
	k->pid = pid;
	k->tid = tid;
	k->dso = res->dso;
	k->anon = res->dso ? NULL : res->anon_name;
	k->sym = res->sym;
	k->sym_start = res->sym ? res->sym_start : 0;
	k->sym_by_name = res->jit || res->inlined;
	k->plt = res->plt;
	k->addr = res->sym ? 0 : res->addr;
	k->level = res->level;
}

bool hist__same_key(const struct hist *h, const struct hist_key *a, const struct hist_key *b)
{
	return key_eq(h, a, b);
}

/* The entry for @k, created empty if new; NULL when out of memory. */
static struct hist_entry *lookup(struct hist *h, const struct hist_key *k)
{
	uint64_t hash = key_hash(h, k);
	size_t i, mask;
	struct hist_entry *e;

	/* entries and their index grow together; the index is at most half full */
	if (!h->cap || (h->nr + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		struct hist_entry *n = realloc(h->e, cap * sizeof(*n));

		if (!n)
			return NULL;
		h->e = n;
		h->cap = cap;
		free(h->idx);
		h->idx = malloc(cap * sizeof(*h->idx));
		if (!h->idx)
			return NULL;
		memset(h->idx, 0xff, cap * sizeof(*h->idx));
		for (i = 0; i < h->nr; i++) {
			size_t j;

			for (j = h->e[i].hash & (cap - 1); h->idx[j] != UINT32_MAX;
			     j = (j + 1) & (cap - 1))
				;
			h->idx[j] = (uint32_t)i;
		}
	}
	mask = h->cap - 1;
	for (i = hash & mask; h->idx[i] != UINT32_MAX; i = (i + 1) & mask) {
		e = &h->e[h->idx[i]];
		if (e->hash == hash && key_eq(h, &e->k, k))
			return e;
	}
	h->idx[i] = (uint32_t)h->nr;
	e = &h->e[h->nr++];
	memset(e, 0, sizeof(*e));
	e->k = *k;
	e->hash = hash;
	e->made = (uint32_t)(h->nr - 1);
	e->tree = CT_NONE;
	e->first_time = UINT64_MAX;
	e->thread_time = UINT64_MAX;
	return e;
}

int hist__add(struct hist *h, const struct hist_key *k, uint64_t period)
{
	uint32_t idx;

	return hist__add_at(h, k, period, &idx);
}

int hist__add_at(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t *idx)
{
	struct hist_entry *e = lookup(h, k);

	if (!e)
		return -ENOMEM;
	*idx = (uint32_t)(e - h->e);
	hist__add_idx(h, *idx, period);
	return 0;
}

/* The samples one add counts: 1, or a presummed group's. */
static inline uint64_t weight(const struct hist *h)
{
	return h->weight ? h->weight : 1;
}

void hist__add_idx(struct hist *h, uint32_t idx, uint64_t period)
{
	hist__count(h, period);
	h->e[idx].period += period;
	h->e[idx].samples += weight(h);
}

void hist__count(struct hist *h, uint64_t period)
{
	h->total_period += period;
	h->total_samples += weight(h);
	h->seq++;
}

int hist__add_chain(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t depth)
{
	uint32_t idx;

	return hist__add_chain_at(h, k, period, depth, &idx);
}

int hist__add_chain_at(struct hist *h, const struct hist_key *k, uint64_t period, uint32_t depth,
		       uint32_t *idx)
{
	struct hist_entry *e = lookup(h, k);

	if (!e)
		return -ENOMEM;
	*idx = (uint32_t)(e - h->e);
	hist__add_chain_idx(h, *idx, period, depth);
	return 0;
}

void hist__add_chain_idx(struct hist *h, uint32_t idx, uint64_t period, uint32_t depth)
{
	struct hist_entry *e = &h->e[idx];

	if (e->stamp != h->seq) {
		e->stamp = h->seq;
		e->children += period;
		if (depth > e->depth)
			e->depth = depth;
	}
}

void hist__note_level(struct hist *h, uint32_t idx, char level, uint64_t time)
{
	struct hist_entry *e = &h->e[idx];

	if (time < e->first_time) {
		e->first_time = time;
		e->k.level = level;
	}
}

void hist__note_thread(struct hist *h, uint32_t idx, uint32_t pid, uint32_t tid, uint64_t time)
{
	struct hist_entry *e = &h->e[idx];

	/* (the key compares pid and tid only when they are keys, and then they are these) */
	if (time < e->thread_time) {
		e->thread_time = time;
		e->k.pid = pid;
		e->k.tid = tid;
	}
}

int hist__add_tree(struct hist *h, const struct hist_key *k, struct calltree *ct,
		   const uint32_t *frames, size_t n, uint64_t period)
{
	struct hist_entry *e = lookup(h, k);
	int err;

	if (!e)
		return -ENOMEM;
	if (e->tree_stamp == h->seq)
		return 0;
	e->tree_stamp = h->seq;
	if (e->tree == CT_NONE) {
		err = calltree__new_root(ct, &e->tree);
		if (err)
			return err;
	}
	return calltree__add(ct, e->tree, frames, n, period, NULL);
}

static int tally(struct unres_entry **list, size_t *nr, size_t *cap, struct dso *d,
		 const char *anon, enum dso_status why, uint64_t period, uint64_t samples)
{
	size_t i;
	struct unres_entry *n;

	for (i = 0; i < *nr; i++) {
		if ((*list)[i].dso == d && (*list)[i].anon == anon && (*list)[i].why == why) {
			(*list)[i].period += period;
			(*list)[i].samples += samples;
			return 0;
		}
	}
	if (array_grow(list, cap, *nr + 1))
		return -ENOMEM;
	n = *list;
	n[*nr].dso = d;
	n[*nr].anon = anon;
	n[*nr].why = why;
	n[*nr].period = period;
	n[*nr].samples = samples;
	(*nr)++;
	return 0;
}

int hist__add_unresolved(struct hist *h, struct dso *d, const char *anon, enum dso_status why,
			 uint64_t period)
{
	return tally(&h->u, &h->nr_u, &h->cap_u, d, anon, why, period, weight(h));
}

int hist__add_image(struct hist *h, struct dso *d, uint64_t period)
{
	return tally(&h->img, &h->nr_img, &h->cap_img, d, NULL, DSO_NOT_ELF, period, weight(h));
}

void hist__release(struct hist *h)
{
	if (!h)
		return;
	free(h->e);
	free(h->idx);
	free(h->u);
	free(h->img);
	memset(h, 0, sizeof(*h));
}

double hist__rank_pct(const struct hist *h, const struct hist_entry *e)
{
	return hist__pct(h->children ? e->children : e->period, h->total_period);
}

const char *hist__sym_name(const struct hist_key *k, int style, char *buf, size_t len)
{
	char *dm;

	if (!k->sym) {
		/* perf's "%#.16llx": address 0 (a chain's end marker) has no "0x" */
		snprintf(buf, len, "%#.16llx", (unsigned long long)k->addr);
		return buf;
	}
	dm = style == SYM_RAW ? NULL : jrec_demangle(k->sym, style == SYM_PARAMS);
	snprintf(buf, len, "%s%s", dm ? dm : k->sym, k->plt ? "@plt" : "");
	free(dm);
	return buf;
}
