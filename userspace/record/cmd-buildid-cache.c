// SPDX-License-Identifier: GPL-2.0
/*
 * jrec buildid-cache: list, remove and prune the entries of the build-id
 * cache that jrec record fills (perf buildid-cache's -l, -r, -p, -P), and
 * keep it within its size limit by evicting the least recently used.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bidcache-dir.h"
#include "buildid-cache.h"
#include "commands.h"
#include "cookie.h"

enum {
	OPT_BUILDID_DIR = 256,
	OPT_PRUNE,
	OPT_SIZE_LIMIT,
};

static const struct option long_opts[] = {
	{ "list", no_argument, NULL, 'l' },
	{ "remove", required_argument, NULL, 'r' },
	{ "purge", required_argument, NULL, 'p' },
	{ "purge-all", no_argument, NULL, 'P' },
	{ "prune", no_argument, NULL, OPT_PRUNE },
	{ "size-limit", required_argument, NULL, OPT_SIZE_LIMIT },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: jrec buildid-cache [OPTIONS]\n"
		"\n"
		"  -l, --list              list the entries: cookie, original path\n"
		"  -r, --remove FILE       remove the entry of FILE's build-id (or cookie)\n"
		"  -p, --purge PATH        remove every entry recorded for PATH, all builds\n"
		"  -P, --purge-all         remove every entry\n"
		"      --prune             remove the least recently used entries until the\n"
		"                          cache is within its size limit\n"
		"      --size-limit SIZE   the limit (K, M, G suffixes; 0 = none); default\n"
		"                          $JREC_BUILDID_CACHE_SIZE, else 2G\n"
		"      --buildid-dir DIR   the cache (default $JREC_BUILDID_DIR, else\n"
		"                          ~/.cache/jrec)\n"
		"  -v, --verbose           with -l: size, disk bytes the entry alone holds,\n"
		"                          and whether its file is shared (a hard link)\n"
		"  -h, --help              this help\n");
}

static void list(const struct bidcache_dir *d, int verbose)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const struct bidcache_entry *e = &d->e[i];

		if (verbose)
			printf("%s %s size %llu cost %llu%s\n", e->name, e->path,
			       (unsigned long long)e->size, (unsigned long long)e->cost,
			       e->nlink > 1 ? " linked" : "");
		else
			printf("%s %s\n", e->name, e->path);
	}
	if (verbose)
		printf("# %zu entries, %.3f MB on disk\n", d->nr,
		       (double)d->cost / (1024.0 * 1024.0));
}

/* -r FILE: the entry named by FILE's own cookie. */
static int remove_file(const char *dir, const char *file)
{
	char hex[JREC_COOKIE_HEX_LEN];
	struct jrec_cookie c;
	int fd = open(file, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		fprintf(stderr, "jrec buildid-cache: cannot open %s: %s\n", file, strerror(errno));
		return 1;
	}
	err = jrec_cookie_from_fd(fd, &c);
	close(fd);
	if (!err) {
		jrec_cookie_hex(&c, hex);
		err = bidcache_dir__remove(dir, hex);
	}
	if (err) {
		fprintf(stderr, "jrec buildid-cache: cannot remove %s: %s\n", file,
			err == -ENOENT ? "not in the cache" : strerror(-err));
		return 1;
	}
	printf("Removing %s %s: Ok\n", hex, file);
	return 0;
}

/* -p PATH (or -P, @path NULL): every entry recorded for PATH. */
static int purge(const char *dir, const char *path)
{
	struct bidcache_dir d;
	size_t i, n = 0;
	int err = bidcache_dir__read(dir, &d), ret = 0;

	if (err) {
		fprintf(stderr, "jrec buildid-cache: cannot read %s: %s\n", dir, strerror(-err));
		return 1;
	}
	for (i = 0; i < d.nr; i++) {
		if (path && strcmp(d.e[i].path, path))
			continue;
		err = bidcache_dir__remove(dir, d.e[i].name);
		if (err) {
			fprintf(stderr, "jrec buildid-cache: cannot remove %s: %s\n", d.e[i].name,
				strerror(-err));
			ret = 1;
			continue;
		}
		printf("Removing %s %s: Ok\n", d.e[i].name, d.e[i].path);
		n++;
	}
	bidcache_dir__release(&d);
	if (path && !n && !ret) {
		fprintf(stderr, "jrec buildid-cache: no entry for %s\n", path);
		return 1;
	}
	return ret;
}

static int prune(const char *dir, uint64_t limit)
{
	struct bidcache_dir d;
	uint64_t bytes;
	size_t n;
	int err = bidcache_dir__prune(dir, limit, NULL, &n, &bytes);

	if (!err)
		err = bidcache_dir__read(dir, &d);
	if (err) {
		fprintf(stderr, "jrec buildid-cache: cannot prune %s: %s\n", dir, strerror(-err));
		return 1;
	}
	printf("pruned %zu entries (%.3f MB); the cache holds %.3f MB, limit %.3f MB\n", n,
	       (double)bytes / (1024.0 * 1024.0), (double)d.cost / (1024.0 * 1024.0),
	       (double)limit / (1024.0 * 1024.0));
	bidcache_dir__release(&d);
	return 0;
}

int cmd_buildid_cache(int argc, char **argv)
{
	const char *dir_opt = NULL, *remove = NULL, *purge_path = NULL, *limit_s = NULL;
	int c, do_list = 0, purge_all = 0, do_prune = 0, verbose = 0, ret = 0;
	struct bidcache_dir d;
	char dir[4096];
	uint64_t limit;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+lr:p:Pvh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'l': do_list = 1; break;
		case 'r': remove = optarg; break;
		case 'p': purge_path = optarg; break;
		case 'P': purge_all = 1; break;
		case 'v': verbose = 1; break;
		case OPT_PRUNE: do_prune = 1; break;
		case OPT_SIZE_LIMIT: limit_s = optarg; break;
		case OPT_BUILDID_DIR: dir_opt = optarg; break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cmd__bad_option("buildid-cache", argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "jrec buildid-cache: unexpected argument '%s'\n", argv[optind]);
		return JREC_EXIT_USAGE;
	}
	if (!do_list && !remove && !purge_path && !purge_all && !do_prune) {
		fprintf(stderr, "jrec buildid-cache: nothing to do: give -l, -r, -p, -P or "
				"--prune; see 'jrec buildid-cache --help'\n");
		return 2;
	}
	if (limit_s ? buildid_cache__parse_size(limit_s, &limit)
		    : buildid_cache__default_limit(&limit)) {
		fprintf(stderr, "jrec buildid-cache: invalid size limit '%s'\n",
			limit_s ? limit_s : getenv("JREC_BUILDID_CACHE_SIZE"));
		return 2;
	}
	if (dir_opt)
		snprintf(dir, sizeof(dir), "%s", dir_opt);
	else if (buildid_cache__default_dir(dir, sizeof(dir))) {
		fprintf(stderr, "jrec buildid-cache: no cache directory (set HOME or "
				"JREC_BUILDID_DIR, or give --buildid-dir)\n");
		return 2;
	}
	if (remove)
		ret |= remove_file(dir, remove);
	if (purge_path)
		ret |= purge(dir, purge_path);
	if (purge_all)
		ret |= purge(dir, NULL);
	if (do_prune)
		ret |= prune(dir, limit ? limit : UINT64_MAX);
	if (do_list) {
		c = bidcache_dir__read(dir, &d);
		if (c) {
			fprintf(stderr, "jrec buildid-cache: cannot read %s: %s\n", dir,
				strerror(-c));
			return 1;
		}
		list(&d, verbose);
		bidcache_dir__release(&d);
	}
	return ret;
}
