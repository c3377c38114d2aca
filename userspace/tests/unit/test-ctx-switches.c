// SPDX-License-Identifier: GPL-2.0
/*
 * ctx-switches: an off-CPU interval runs from a switch-out to the same
 * thread's next switch-in, whatever order the records came in and whatever
 * other threads did between; a preempted switch-out says so; a thread that
 * never came back has no interval; the last switch-in before a time is found.
 */
#include <errno.h>

#include "ctx-switches.h"
#include "tap.h"

int main(void)
{
	struct ctx_switches cs = {0};
	uint64_t in = 0;
	bool pre = true;
	int err = 0;

	/* thread 7: out at 100 (sampled at 98), in at 250; out preempted at 300, in at 320 */
	err |= ctx_switches__add(&cs, 7, 320, CTX_SWITCH_IN);
	err |= ctx_switches__add(&cs, 7, 100, CTX_SWITCH_OUT);
	err |= ctx_switches__add(&cs, 9, 150, CTX_SWITCH_IN); /* another thread between */
	err |= ctx_switches__add(&cs, 7, 250, CTX_SWITCH_IN);
	err |= ctx_switches__add(&cs, 7, 300, CTX_SWITCH_OUT_PREEMPT);
	/* thread 9 leaves at 400 and never comes back */
	err |= ctx_switches__add(&cs, 9, 400, CTX_SWITCH_OUT);
	/* thread 5: out and in at the same time: the interval ends there */
	err |= ctx_switches__add(&cs, 5, 50, CTX_SWITCH_IN);
	err |= ctx_switches__add(&cs, 5, 50, CTX_SWITCH_OUT);
	check(!err, "switch records added");
	check(ctx_switches__interval(&cs, 7, 98, &in, &pre) == -ENOENT,
	      "no look-up before ctx_switches__finish()");
	ctx_switches__finish(&cs);
	check(ctx_switches__any(&cs), "the recording has switches");

	check(!ctx_switches__interval(&cs, 7, 98, &in, &pre) && in == 250 && !pre,
	      "a switch-out sampled before its record ends at the thread's next switch-in, not "
	      "another thread's; it blocked");
	check(!ctx_switches__interval(&cs, 7, 299, &in, &pre) && in == 320 && pre,
	      "a preempted switch-out is runnable");
	check(ctx_switches__interval(&cs, 9, 399, &in, &pre) == -ENOENT,
	      "a thread that never came back has no interval");
	check(ctx_switches__interval(&cs, 11, 10, &in, &pre) == -ENOENT,
	      "a thread without switches has none");
	check(!ctx_switches__interval(&cs, 5, 50, &in, &pre) && in == 50,
	      "a switch-in at the switch-out's time ends it");

	check(!ctx_switches__last_in(&cs, 7, 260, &in) && in == 250,
	      "last switch-in before a time");
	check(!ctx_switches__last_in(&cs, 7, 250, &in) && in == 250, "at the time itself");
	check(!ctx_switches__last_in(&cs, 7, 1000, &in) && in == 320, "after the last switch");
	check(ctx_switches__last_in(&cs, 7, 99, &in) == -ENOENT, "none before the first");
	check(ctx_switches__last_in(&cs, 9, 140, &in) == -ENOENT &&
		  !ctx_switches__last_in(&cs, 9, 160, &in) && in == 150,
	      "another thread's own");
	ctx_switches__release(&cs);
	ctx_switches__release(NULL);
	check(!ctx_switches__any(&cs), "released");
	return tap_done();
}
