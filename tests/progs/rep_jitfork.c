// SPDX-License-Identifier: GPL-2.0
/*
 * rep_jitfork: a forked child runs the JIT code its parent generated. The
 * parent generates "fork_jd_fn" (announced in a jitdump in DIR) and
 * "fork_pm_fn" (in /tmp/perf-PID.map), runs both, then forks. The child
 * runs both for SECONDS of CPU time each. Meanwhile the parent writes a new
 * function over fork_jd_fn's page, announces it as "parent_new_fn" and runs
 * it: the child's copy still holds fork_jd_fn, so every child sample there
 * belongs to fork_jd_fn and none to parent_new_fn. Prints "child PID".
 *
 *   rep_jitfork DIR SECONDS
 */
#include <sys/wait.h>

#include "testjit.h"

int main(int argc, char **argv)
{
	double secs;
	pid_t child;
	void *jd, *pm;
	FILE *f;
	int st;

	if (argc != 3) {
		fprintf(stderr, "usage: rep_jitfork DIR SECONDS\n");
		return 2;
	}
	secs = atof(argv[2]);
	f = tj_jitdump_open(argv[1]);
	jd = tj_gen(NULL);
	tj_jitdump_load(f, (uint64_t)(uintptr_t)jd, "fork_jd_fn", 1);
	pm = tj_gen(NULL);
	tj_perfmap_add((uint64_t)(uintptr_t)pm, "fork_pm_fn");
	tj_run(jd, 0.05);
	tj_run(pm, 0.05);
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("rep_jitfork: fork");
		return 1;
	}
	if (!child) {
		tj_run(jd, secs);
		tj_run(pm, secs);
		_exit(0);
	}
	/* the parent's page changes; the child's copy does not */
	tj_fill(jd, 0);
	tj_jitdump_load(f, (uint64_t)(uintptr_t)jd, "parent_new_fn", 2);
	tj_run(jd, secs);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "rep_jitfork: the child failed\n");
		return 1;
	}
	printf("child %d\n", (int)child);
	tj_perfmap_remove();
	fclose(f);
	return 0;
}
