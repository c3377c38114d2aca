// SPDX-License-Identifier: GPL-2.0
/*
 * A small shared library for the build-id guest tests. JM_VARIANT makes
 * versions with different contents, hence different build-ids; JM_PAD adds
 * a large read-only array so the file is well past 4 KiB.
 */
#ifndef JM_VARIANT
#define JM_VARIANT 0
#endif

#ifdef JM_PAD
const unsigned char jm_pad[64 * 1024] = { JM_VARIANT + 1 };
#endif

int jm_variant(void);
int jm_variant(void)
{
	return JM_VARIANT;
}
