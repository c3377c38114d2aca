// SPDX-License-Identifier: GPL-2.0
/* pager: text for a terminal through $PAGER or less (see pager.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

/* Whether @cmd is a program on PATH (an absolute or relative path as it is). */
static bool on_path(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	if (strchr(cmd, '/'))
		return !access(cmd, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, cmd) < (int)sizeof(buf) &&
		    !access(buf, X_OK))
			return true;
	}
	return false;
}

/* The pager's command line, or NULL for none. */
static const char *pager_command(void)
{
	const char *env = getenv("PAGER");

	if (env)
		return *env && strcmp(env, "cat") ? env : NULL;
	return on_path("less") ? "less -FRSX" : NULL;
}

int pager__start(struct pager *p)
{
	const char *cmd;
	int fds[2];
	pid_t pid;

	p->pid = 0;
	p->out = stdout;
	if (!isatty(STDOUT_FILENO) || !(cmd = pager_command()))
		return 0;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	p->out = fdopen(fds[1], "w");
	if (!p->out) {
		int err = -errno;

		close(fds[1]);
		waitpid(pid, NULL, 0);
		p->out = stdout;
		return err;
	}
	p->pid = pid;
	/* a reader who quits the pager early ends the text: no SIGPIPE death, no error */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

void pager__finish(struct pager *p)
{
	if (!p->pid)
		return;
	fclose(p->out);
	p->out = stdout;
	while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
}
