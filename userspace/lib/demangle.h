/* SPDX-License-Identifier: GPL-2.0 */
/* demangle: C++ (Itanium ABI) and Rust (legacy and v0) names, via libiberty. */
#ifndef JREC_DEMANGLE_H
#define JREC_DEMANGLE_H

/*
 * A malloc'd demangled name, or NULL when @name is not mangled. A name that
 * does not demangle with its parameters is given without them.
 */
char *jrec_demangle(const char *name);

#endif
