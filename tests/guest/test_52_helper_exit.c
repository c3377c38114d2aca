// SPDX-License-Identifier: GPL-2.0
/*
 * A task whose records are still queued for task_work when it dies without
 * returning to user space: a usermode helper whose exec fails past the
 * point of no return, after the ELF loader mapped a code segment, calls
 * do_exit() from the kernel, and its task_work runs after exit_fs() took
 * its file-system context away. The helper here is the kernel's modprobe,
 * pointed at such an ELF file and run by a socket() of a family no module
 * provides yet. Its MMAP3 (cause exec) must still reach a system-wide
 * session, named "//unknown" since its path cannot be resolved without the
 * task's fs, and the kernel must not oops.
 */
#include <elf.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "jsession.h"

#define MODPROBE "/proc/sys/kernel/modprobe"
#define BAD_BASE 0x400000UL
/* Above every user address space, also with 5-level paging: it cannot map. */
#define BAD_HIGH (1ULL << 60)

/* An ELF executable whose second segment cannot be mapped. */
static int write_bad_elf(const char *path)
{
	static uint8_t page[JS_PAGE];
	Elf64_Ehdr *eh = (void *)page;
	Elf64_Phdr *ph = (void *)(eh + 1);
	int fd, ok;

	memset(page, 0xcc, sizeof(page)); /* int3 */
	memset(eh, 0, sizeof(*eh) + 2 * sizeof(*ph));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = BAD_BASE + sizeof(*eh) + 2 * sizeof(*ph);
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_vaddr = ph[0].p_paddr = BAD_BASE;
	ph[0].p_filesz = ph[0].p_memsz = sizeof(page);
	ph[0].p_align = JS_PAGE;
	ph[1] = ph[0];
	ph[1].p_flags = PF_R;
	ph[1].p_vaddr = ph[1].p_paddr = BAD_HIGH;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0)
		return -1;
	ok = write(fd, page, sizeof(page)) == (ssize_t)sizeof(page);
	return close(fd) == 0 && ok ? 0 : -1;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	return close(fd) == 0 && ok ? 0 : -1;
}

/*
 * In a child, which a signal can free if the helper never comes back: the
 * kernel runs modprobe for "net-pf-35" and waits for it.
 */
static int run_modprobe(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(30);
		_exit(socket(AF_PHONET, SOCK_DGRAM, 0) >= 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? 0 : -1;
}

int main(void)
{
	struct js_records r = { 0 };
	char bad[64], old[256] = "", name[256] = "-";
	const struct jmmap_rec_mmap3 *found = NULL;
	struct stat st;
	int fd, done, i;
	FILE *f;

	ktap_begin();
	f = fopen(MODPROBE, "r");
	if (!f || !fgets(old, sizeof(old), f))
		ktap_skip_all("no " MODPROBE);
	fclose(f);
	snprintf(bad, sizeof(bad), "/tmp/jmmap-bad-elf-%d", getpid());
	if (write_bad_elf(bad) || stat(bad, &st))
		ktap_skip_all("cannot write the ELF file");

	fd = js_open(0, 0);
	if (fd < 0 || js_add(fd, 0, JMMAP_TARGET_SYSTEM_WIDE))
		ktap_skip_all("cannot open a system-wide session");
	if (write_file(MODPROBE, bad))
		ktap_skip_all("cannot set " MODPROBE);
	done = run_modprobe();
	write_file(MODPROBE, old);
	ktap_ok(done == 0, "helper_returned: the socket() that ran the helper returned");

	for (i = 0; i < 20 && !found; i++) {
		js_drain(fd, &r);
		js_for_each(&r, h) {
			const struct jmmap_rec_mmap3 *m = (const void *)h;

			if (h->type == JMMAP_REC_MMAP3 && m->ino == st.st_ino &&
			    m->start == BAD_BASE && m->cause == JMMAP_CAUSE_EXEC)
				found = m;
		}
		if (!found)
			usleep(10000);
	}
	if (found)
		snprintf(name, sizeof(name), "%s", js_mmap3_name(found));
	ktap_ok(found != NULL,
		"exiting_helper_mmap3_arrives: the loader's MMAP3 of the helper's code (pid %u)",
		found ? found->pid : 0);
	ktap_ok(found && !strcmp(name, "//unknown") &&
			found->cookie_kind == JMMAP_COOKIE_CONTENT && found->len == JS_PAGE,
		"exiting_helper_mmap3_unnamed: named \"%s\", content cookie (kind %u)", name,
		found ? found->cookie_kind : 0);
	js_free(&r);
	close(fd);
	unlink(bad);
	return ktap_finish();
}
