/* SPDX-License-Identifier: GPL-2.0 */
/* Functions of a library loaded with dlopen() only when first needed. */
#ifndef JREC_DL_SYM_H
#define JREC_DL_SYM_H

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

/* dlsym()'s data pointer into function pointer @fn: the bits copied, as POSIX allows. */
static inline bool dl_sym(void *lib, const char *name, void *fn)
{
	void *p = dlsym(lib, name);

	memcpy(fn, &p, sizeof(p));
	return p != NULL;
}

#endif
