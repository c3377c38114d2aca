// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes of notes read for one cookie are bounded
 * (JMMAP_COOKIE_NOTES_MAX), wherever the notes are, so that a followed
 * process cannot make the module read hundreds of megabytes for one
 * mapping. An ELF file whose only build-id note is in a section that comes
 * after that many bytes of other notes (NJUNK sections of
 * JMMAP_COOKIE_NOTE_BLOCK_MAX bytes, all over one block of empty notes)
 * gets the content cookie, the one userspace computes for it by the same
 * rule; the same note with fewer sections before it is found.
 */
#include <elf.h>

#include "cookie.h"
#include "jsession.h"

#define JUNK_OFF 4096UL
#define NJUNK (JMMAP_COOKIE_NOTES_MAX / JMMAP_COOKIE_NOTE_BLOCK_MAX)

static const char *path = "/tmp/test_33_notes.elf";

/* An ELF file: @njunk note sections over one block of empty notes, then the build-id's. */
static int write_elf(unsigned int njunk)
{
	static uint8_t junk[JMMAP_COOKIE_NOTE_BLOCK_MAX];
	struct {
		Elf64_Nhdr nh;
		char name[4];
		uint8_t desc[20];
	} note = { .nh = { .n_namesz = 4, .n_descsz = 20, .n_type = NT_GNU_BUILD_ID },
		   .name = "GNU" };
	Elf64_Shdr sh[2 + NJUNK];
	Elf64_Ehdr eh;
	off_t note_off = JUNK_OFF + sizeof(junk), sh_off = note_off + sizeof(note);
	unsigned int i;
	int f, ok;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shoff = (Elf64_Off)sh_off;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (Elf64_Half)(njunk + 2);
	memset(sh, 0, sizeof(sh));
	for (i = 1; i <= njunk; i++) {
		sh[i].sh_type = SHT_NOTE;
		sh[i].sh_offset = JUNK_OFF;
		sh[i].sh_size = sizeof(junk);
		sh[i].sh_addralign = 4;
	}
	sh[i].sh_type = SHT_NOTE;
	sh[i].sh_offset = (Elf64_Off)note_off;
	sh[i].sh_size = sizeof(note);
	sh[i].sh_addralign = 4;
	for (i = 0; i < sizeof(note.desc); i++)
		note.desc[i] = (uint8_t)(0xa0 + i + njunk);
	unlink(path);
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (f < 0)
		return -1;
	ok = pwrite(f, &eh, sizeof(eh), 0) == sizeof(eh) &&
	     pwrite(f, junk, sizeof(junk), JUNK_OFF) == sizeof(junk) &&
	     pwrite(f, &note, sizeof(note), note_off) == sizeof(note) &&
	     pwrite(f, sh, (njunk + 2) * sizeof(sh[0]), sh_off) ==
		     (ssize_t)((njunk + 2) * sizeof(sh[0]));
	close(f);
	return ok ? 0 : -1;
}

static void check(int fd, unsigned int njunk, uint8_t want_kind, const char *name)
{
	struct js_records r = { 0 };
	struct jrec_cookie uc;
	char got[2 * JMMAP_COOKIE_MAX + 1], user[2 * JMMAP_COOKIE_MAX + 1];
	uint8_t kind = 0xff;
	int err;

	err = write_elf(njunk) || js_map_exec_cookie(fd, &r, path, got, &kind) ||
	      jrec_cookie_from_path(path, &uc);
	if (!err)
		jrec_cookie_hex(&uc, user);
	ktap_ok(!err && kind == want_kind && uc.kind == want_kind && !strcmp(got, user),
		"%s: build-id note after %u note sections of %d bytes: the module's cookie "
		"(kind %u) %s, userspace's (kind %u) %s, want kind %u",
		name, njunk, JMMAP_COOKIE_NOTE_BLOCK_MAX, kind, err ? "-" : got,
		err ? 0 : uc.kind, err ? "-" : user, want_kind);
	if (err)
		js_dump(&r, getpid());
	js_free(&r);
}

int main(void)
{
	int fd;

	ktap_begin();
	fd = js_open_self(0, 0);
	check(fd, NJUNK - 1, JMMAP_COOKIE_ELF_BUILD_ID, "notes_within_budget");
	check(fd, NJUNK, JMMAP_COOKIE_CONTENT, "notes_past_budget");
	unlink(path);
	close(fd);
	return ktap_finish();
}
