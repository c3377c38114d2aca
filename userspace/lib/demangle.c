// SPDX-License-Identifier: GPL-2.0
#include <libiberty/demangle.h>
#include <string.h>

#include "demangle.h"

char *jrec_demangle(const char *name)
{
	char *d;

	if (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2))
		return NULL;
	d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
	/* some names only demangle without their parameters (c++filt -p) */
	return d ? d : cplus_demangle(name, DMGL_ANSI | DMGL_AUTO);
}
