// SPDX-License-Identifier: GPL-2.0
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfod-dl.h"

typedef debuginfod_client *(*begin_fn)(void);
typedef int (*find_fn)(debuginfod_client *, const unsigned char *, int, char **);
typedef void (*end_fn)(debuginfod_client *);

struct debuginfod_dl {
	void *lib;
	debuginfod_client *client;
	find_fn find;
	end_fn end;
};

static void *sym(void *lib, const char *name)
{
	return dlsym(lib, name);
}

int debuginfod_dl__open(struct debuginfod_dl **out)
{
	struct debuginfod_dl *d;
	begin_fn begin;
	void *p;
	int err = -ENOENT;

	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!d->lib)
		goto out_free;
	/* a data pointer to a function pointer: copy the bits, as POSIX allows */
	p = sym(d->lib, "debuginfod_begin");
	memcpy(&begin, &p, sizeof(p));
	p = sym(d->lib, "debuginfod_find_debuginfo");
	memcpy(&d->find, &p, sizeof(p));
	p = sym(d->lib, "debuginfod_end");
	memcpy(&d->end, &p, sizeof(p));
	if (!begin || !d->find || !d->end)
		goto out_close;
	d->client = begin();
	if (!d->client) {
		err = -ENOMEM;
		goto out_close;
	}
	*out = d;
	return 0;
out_close:
	dlclose(d->lib);
out_free:
	free(d);
	return err;
}

int debuginfod_dl__find_debuginfo(struct debuginfod_dl *d, const unsigned char *build_id,
				  size_t len, char **path)
{
	*path = NULL;
	if (!d || !len || len > 64)
		return -EINVAL;
	return d->find(d->client, build_id, (int)len, path);
}

void debuginfod_dl__close(struct debuginfod_dl *d)
{
	if (!d)
		return;
	if (d->client)
		d->end(d->client);
	dlclose(d->lib);
	free(d);
}
