/* SPDX-License-Identifier: GPL-2.0 */
/* demangle: C++ (Itanium ABI) and Rust (legacy and v0) names, via libiberty. */
#ifndef JREC_DEMANGLE_H
#define JREC_DEMANGLE_H

#include <stdbool.h>

/*
 * A malloc'd demangled name, or NULL when @name is not mangled. C++ names
 * come without their parameter lists, as perf prints them, unless @params
 * (perf's -v); a name that does not demangle with its parameters is given
 * without them.
 */
char *jrec_demangle(const char *name, bool params);

#endif
