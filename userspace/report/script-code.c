// SPDX-License-Identifier: GPL-2.0
/*
 * script-code: machine code of the recorded files for jrec script's insn and
 * brstackinsn fields (script-code.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "disasm.h"
#include "dso.h"
#include "machine-files.h"
#include "script-code.h"
#include "session.h"

/*
 * The file of @dso's recorded build (the cache's copy, perf's, the path
 * while it is that build; the vdso perf kept), open and kept for the next
 * samples, or -1.
 */
static int code_fd(struct script_code *c, struct session *s, struct dso *dso)
{
	unsigned int i, n = sizeof(c->fds) / sizeof(c->fds[0]);
	char path[4096];
	int fd;

	for (i = 0; i < c->nr_fds; i++)
		if (c->fds[i].dso == dso)
			return c->fds[i].fd;
	fd = dso__code_file(&s->dsos, dso, path, sizeof(path)) ? -1 : machine_file__open(path);
	i = c->nr_fds < n ? c->nr_fds++ : 0; /* full: the first one's slot */
	if (c->fds[i].dso && c->fds[i].fd >= 0)
		close(c->fds[i].fd);
	c->fds[i].dso = dso;
	c->fds[i].fd = fd < 0 ? -1 : fd;
	return c->fds[i].fd;
}

size_t script_code__read(struct script_code *c, struct session *s, struct dso *dso, uint64_t off,
			 uint8_t *buf, size_t len)
{
	uint8_t ehdr[20];
	uint16_t machine;
	ssize_t got;
	int fd = code_fd(c, s, dso);

	if (fd < 0 || pread(fd, ehdr, sizeof(ehdr), 0) != (ssize_t)sizeof(ehdr) ||
	    memcmp(ehdr, "\177ELF", 4))
		return 0;
	got = pread(fd, buf, len, (off_t)off);
	if (got <= 0)
		return 0;
	machine = (uint16_t)(ehdr[18] | ehdr[19] << 8); /* e_machine (little-endian ELF) */
	if (c->dis && c->dis_machine != machine) {
		disasm__delete(c->dis);
		c->dis = NULL;
	}
	if (!c->dis && disasm__supported(machine) && !disasm__new(machine, DISASM_ATT, &c->dis))
		c->dis_machine = machine;
	return (size_t)got;
}

void script_code__release(struct script_code *c)
{
	if (!c)
		return;
	disasm__delete(c->dis);
	c->dis = NULL;
	while (c->nr_fds)
		if (c->fds[--c->nr_fds].fd >= 0)
			close(c->fds[c->nr_fds].fd);
}

void script__print_symname(FILE *out, const struct resolved *res, bool off)
{
	char *dm;

	if (!res->sym) {
		fputs("[unknown]", out);
		return;
	}
	dm = jrec_demangle(res->sym, false); /* as perf script: no parameter lists */
	fprintf(out, "%s%s", dm ? dm : res->sym, res->plt ? "@plt" : "");
	free(dm);
	if (off)
		fprintf(out, "+0x%llx", (unsigned long long)(res->addr - res->sym_start));
}
