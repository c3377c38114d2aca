// SPDX-License-Identifier: GPL-2.0
#include <libiberty/demangle.h>
#include <string.h>

#include "demangle.h"

char *jrec_demangle(const char *name, bool params)
{
	char *d = NULL;

	if (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2))
		return NULL;
	if (params)
		d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
	/* without them, as asked or where a name only demangles so (c++filt -p) */
	return d ? d : cplus_demangle(name, DMGL_ANSI | DMGL_AUTO);
}
