// SPDX-License-Identifier: GPL-2.0
/* UTF-8 checks and JSON strings for the outputs that write text for other tools (json.h). */
#include <stdio.h>

#include "json.h"

size_t json__utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string. Names come from the traced programs and need not be UTF-8:
 * a byte that does not start a well-formed sequence becomes U+FFFD, so that
 * the document always parses.
 */
void json__str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (p && *p) {
		size_t n = json__utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else if (n)
			fwrite(p, 1, n, out);
		else
			fputs("\\ufffd", out);
		p += n ? n : 1;
	}
	fputc('"', out);
}
