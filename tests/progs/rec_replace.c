// SPDX-License-Identifier: GPL-2.0
/*
 * rec_replace: the replaced-library scenario. The process dlopens LIB and
 * runs its x_work() for a while; then NEWLIB is renamed over LIB (a package
 * upgrade in miniature); a child process (fork + exec of this program)
 * dlopens LIB, now the new build, and runs it, while the parent keeps
 * running the old build it still has mapped.
 *
 *   rec_replace LIB NEWLIB SECONDS
 *   rec_replace --child LIB SECONDS        (what the child runs)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long (*work_fn)(unsigned long);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static work_fn load(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	work_fn fn;

	if (!h) {
		fprintf(stderr, "rec_replace: %s\n", dlerror());
		exit(1);
	}
	fn = (work_fn)dlsym(h, "x_work");
	if (!fn) {
		fprintf(stderr, "rec_replace: no x_work in %s\n", lib);
		exit(1);
	}
	return fn;
}

static unsigned long run(work_fn fn, double secs)
{
	double end = now() + secs;
	unsigned long x = 1;

	while (now() < end)
		x = fn(x);
	return x;
}

int main(int argc, char **argv)
{
	double secs;
	work_fn fn;
	pid_t pid;
	int status;

	if (argc == 4 && !strcmp(argv[1], "--child")) {
		printf("child %lu\n", run(load(argv[2]), atof(argv[3])));
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: rec_replace LIB NEWLIB SECONDS\n");
		return 2;
	}
	secs = atof(argv[3]);
	fn = load(argv[1]);
	run(fn, secs);
	if (rename(argv[2], argv[1])) {
		perror("rename");
		return 1;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "--child", argv[1], argv[3], (char *)NULL);
		_exit(127);
	}
	printf("parent %lu\n", run(fn, secs));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return 0;
}
