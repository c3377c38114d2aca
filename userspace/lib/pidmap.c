// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pidmap.h"

static size_t slot(uint32_t key, size_t cap)
{
	return (size_t)((key * 2654435761u) & (cap - 1));
}

void *pidmap__get(const struct pidmap *m, uint32_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int grow(struct pidmap *m)
{
	struct pidmap n = { 0 };
	size_t i;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.keys = calloc(n.cap, sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->vals[i])
			continue;
		for (j = slot(m->keys[i], n.cap); n.vals[j]; j = (j + 1) & (n.cap - 1))
			;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.nr++;
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int pidmap__put(struct pidmap *m, uint32_t key, void *val)
{
	size_t i;

	if (!val)
		return -EINVAL;
	if ((m->nr + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	for (i = slot(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
	return 0;
}

void *pidmap__get_or_add(struct pidmap *m, uint32_t key, size_t size, bool *added)
{
	void *val = pidmap__get(m, key);

	*added = false;
	if (val)
		return val;
	val = calloc(1, size);
	if (!val)
		return NULL;
	if (pidmap__put(m, key, val)) {
		free(val);
		return NULL;
	}
	*added = true;
	return val;
}

void *pidmap__next(const struct pidmap *m, size_t *it)
{
	while (*it < m->cap) {
		void *val = m->vals[(*it)++];

		if (val)
			return val;
	}
	return NULL;
}

void pidmap__release(struct pidmap *m)
{
	if (!m)
		return;
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
