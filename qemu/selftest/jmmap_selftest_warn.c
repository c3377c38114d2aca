// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module for the QEMU test bed's self-test: loading it fires one
 * WARN, which must make the harness fail the run. It is built for the guest
 * kernel by tests/suites/59-testbed-selftest and never installed.
 */
#include <linux/bug.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init jmmap_selftest_warn_init(void)
{
	WARN(1, "jmmap test bed self-test: deliberate warning\n");
	return 0;
}

static void __exit jmmap_selftest_warn_exit(void)
{
}

module_init(jmmap_selftest_warn_init);
module_exit(jmmap_selftest_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jmmap test bed self-test: fires a WARN when loaded");
