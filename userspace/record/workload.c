// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the workload. The child is forked first and waits on a pipe,
 * so the events (with enable_on_exec) and the jmmap session can target its
 * pid before it runs anything; then it execs. A second, close-on-exec pipe
 * carries the exec errno back if exec fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

int workload__prepare(struct record *r)
{
	int go[2], ep[2];
	sigset_t none;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ep, O_CLOEXEC)) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return err;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(ep[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the recorder gave up before starting us */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* -o -: the recording is on stdout; the command writes to stderr, as perf's does */
		if (r->opts.pipe && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(r->opts.argv[0], r->opts.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->err_fd = ep[0];
	return 0;
}

int workload__start(struct record *r)
{
	ssize_t n;
	int e = 0;

	if (write(r->go_fd, "g", 1) != 1)
		return -errno;
	close(r->go_fd);
	r->go_fd = -1;
	/* EOF: exec succeeded (the pipe closed on exec); an int: its errno */
	do
		n = read(r->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->err_fd);
	r->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return -e;
	return 0;
}

int workload__reap(struct record *r)
{
	int status;
	pid_t p;

	if (r->child <= 0 || r->child_exited)
		return r->child_exited;
	do
		p = waitpid(r->child, &status, WNOHANG);
	while (p < 0 && errno == EINTR);
	if (p < 0)
		return -errno;
	if (p == 0)
		return 0;
	r->child_exited = 1;
	if (WIFEXITED(status))
		r->child_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->child_status = 128 + WTERMSIG(status);
	else
		r->child_status = 1;
	return 1;
}
