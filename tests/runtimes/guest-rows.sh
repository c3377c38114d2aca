#!/bin/sh
# Runs in the QEMU guest (busybox sh), for tests/lib/runtimes-guest.sh: each
# row of ROWS (NAME, CALLGRAPH, OUTER, MIDDLE, LEAF, COMMAND, separated by
# tabs; COMMAND may use $MS and $SECS, the time its hot loop runs) run once,
# recorded at FREQ samples a second by `jrec record` with the jmmap module
# inside `jrec record --no-jmmap` (the kernel's own mapping records), both
# recordings reported in the guest, kept to the program's process (--pid,
# --percentage relative; --children -n --sort sym -g none). Prints, per row
# and mode,
#   @@row NAME MODE STATUS SECONDS PID  (jrec record's status and wall time,
#                                        the program's pid)
# followed by the report, then "@@guest SECONDS" (the whole run).
#   guest-rows.sh ROWS MILLISECONDS FREQ
# Before it, the runtimes staged under /add are put where they expect to be:
# Erlang's erl script names /usr/lib/erlang, and the CPython root (a tar,
# its programs linked against its own libc) is unpacked to /tmp/py and run
# with chroot, so that its binaries exist only in a container's root.
rows=$1
MS=$2
freq=$3
SECS=$(awk -v m="$MS" 'BEGIN { printf "%.3f", m / 1000 }')
export MS SECS
t0=$(date +%s)
cd /tmp || exit 1
if [ -d /add/erlang ]; then
	mkdir -p /usr/lib /usr/bin
	ln -s /add/erlang /usr/lib/erlang && ln -s ../lib/erlang/bin/erl /usr/bin/erl
fi
if [ -f /add/pyroot.tar ]; then
	mkdir -p /tmp/py && tar -xf /add/pyroot.tar -C /tmp/py && cp /add/hot.py /tmp/py/tmp/prog.py
fi
printf '#!/bin/sh\necho $$ >/tmp/wl.pid\nexec "$@"\n' >/tmp/wl && chmod +x /tmp/wl
tab=$(printf '\t')
while IFS=$tab read -r name cg _ _ _ cmd; do
	[ -n "$name" ] || continue
	# the module's recorder inside the kernel's: one run, sampled by both
	s=$(date +%s)
	rm -f /tmp/wl.pid
	eval "jrec record -q --no-jmmap -F $freq $cg -o /tmp/$name.no-jmmap.data -- \
		jrec record -q -F $freq $cg -o /tmp/$name.jmmap.data -- /tmp/wl $cmd" </dev/null >/tmp/run.out 2>/tmp/run.err
	rc=$?
	secs=$(($(date +%s) - s))
	pid=$(cat /tmp/wl.pid)
	for mode in jmmap no-jmmap; do
		echo "@@row $name $mode $rc $secs $pid"
		[ "$rc" = 0 ] || head -n 5 /tmp/run.err
		jrec report -q -i "/tmp/$name.$mode.data" --pid "$pid" --percentage relative --stdio --children -n \
			--sort sym -g none 2>&1 | sed 's/ *$//'
		rm -f "/tmp/$name.$mode.data"
	done
done <"$rows"
echo "@@guest $(($(date +%s) - t0))"
