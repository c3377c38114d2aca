// SPDX-License-Identifier: GPL-2.0
/* The build-id cache's directory and entry layout; see buildid-cache.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "buildid-cache.h"

int buildid_cache__parse_size(const char *s, uint64_t *bytes)
{
	unsigned int shift = 0;
	uint64_t v;
	char *end;

	errno = 0;
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || (shift && v > UINT64_MAX >> shift))
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}

int buildid_cache__default_limit(uint64_t *bytes)
{
	const char *env = getenv("JREC_BUILDID_CACHE_SIZE");

	if (env && *env)
		return buildid_cache__parse_size(env, bytes);
	*bytes = BUILDID_CACHE_DEFAULT_LIMIT;
	return 0;
}

int buildid_cache__default_dir(char *buf, size_t len)
{
	const char *env = getenv("JREC_BUILDID_DIR");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/jrec", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

char *buildid_cache__path(const char *dir, const struct jrec_cookie *c, const char *leaf)
{
	char hex[JREC_COOKIE_HEX_LEN], *path;

	jrec_cookie_hex(c, hex);
	if (asprintf(&path, "%s/%s%s%s", dir, hex, leaf ? "/" : "", leaf ? leaf : "") < 0)
		return NULL;
	return path;
}
