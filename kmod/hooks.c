// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap hooks, all of them: armed while a session is open, so that a module
 * loaded with none costs nothing (session.c), and once at load to check
 * that every symbol they need is there (main.c).
 */
#include "hooks.h"

/* Called under the session registry's mutex, or at load. */
int jmmap_arm(void)
{
	int err;

	err = jmmap_hooks_proc_register();
	if (err)
		goto out;
	err = jmmap_hooks_mm_register();
	if (err)
		goto out_hooks_proc;
	return 0;

out_hooks_proc:
	jmmap_hooks_proc_unregister();
out:
	return err;
}

/*
 * The mirror of jmmap_arm(). The exit tracepoint goes first: it gives back
 * the stashes of exiting tasks, which the mm hooks' teardown frees.
 */
void jmmap_disarm(void)
{
	jmmap_hooks_proc_unregister();
	jmmap_hooks_mm_unregister();
}
