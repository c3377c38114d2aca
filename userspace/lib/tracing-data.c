// SPDX-License-Identifier: GPL-2.0
/* perf's TRACING_DATA feature section (tracing-data.h). */
#include <errno.h>
#include <string.h>

#include "tracing-data.h"

static const char magic[] = "\x17\x08\x44tracing";
static const char version[] = "0.6";

static int file(struct buf *out, const char *name, const struct buf *b, size_t size_bytes)
{
	uint64_t n = b ? b->len : 0;
	uint32_t n32 = (uint32_t)n;
	int err = name ? buf__append(out, name, strlen(name) + 1) : 0;

	if (!err)
		err = buf__append(out, size_bytes == 8 ? (const void *)&n : (const void *)&n32,
				  size_bytes);
	if (!err && n)
		err = buf__append(out, b->data, (size_t)n);
	return err;
}

int tracing_data__emit(struct buf *out, const struct tracing_data_in *in)
{
	uint8_t endian_long[2] = {__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, sizeof(long)};
	uint32_t zero = 0, nr_sys = 0, nr;
	size_t i, k;
	int err;

	for (i = 0; i < in->nr_events; i++) {
		if (i && !strcmp(in->events[i].system, in->events[i - 1].system))
			continue;
		for (k = 0; k < i; k++)
			if (!strcmp(in->events[k].system, in->events[i].system))
				return -EINVAL; /* the system's events are not together */
		nr_sys++;
	}
	err = buf__append(out, magic, sizeof(magic) - 1);
	if (!err)
		err = buf__append(out, version, sizeof(version));
	if (!err)
		err = buf__append(out, endian_long, sizeof(endian_long));
	if (!err)
		err = buf__append(out, &in->page_size, sizeof(in->page_size));
	if (!err)
		err = file(out, "header_page", in->header_page, 8);
	if (!err)
		err = file(out, "header_event", in->header_event, 8);
	if (!err)
		err = buf__append(out, &zero, sizeof(zero)); /* ftrace events */
	if (!err)
		err = buf__append(out, &nr_sys, sizeof(nr_sys));
	for (i = 0; i < in->nr_events && !err; i = k) {
		const char *sys = in->events[i].system;

		for (k = i; k < in->nr_events && !strcmp(in->events[k].system, sys); k++)
			;
		nr = (uint32_t)(k - i);
		err = buf__append(out, sys, strlen(sys) + 1);
		if (!err)
			err = buf__append(out, &nr, sizeof(nr));
		for (size_t j = i; j < k && !err; j++)
			err = file(out, NULL, in->events[j].format, 8);
	}
	if (!err)
		err = buf__append(out, &zero, sizeof(zero)); /* kallsyms */
	if (!err)
		err = file(out, NULL, in->printk_formats, 4);
	if (!err)
		err = file(out, NULL, in->saved_cmdlines, 8);
	return err;
}
