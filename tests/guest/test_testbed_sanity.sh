#!/bin/sh
# Guest test: the QEMU test bed's contract with the guest tests holds (see
# Documentation/qemu.rst): file systems mounted, environment set, jmmap.ko
# loaded and /dev/jmmap present with mode 0600, jrec on PATH.
n=0
fail=0
ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}
not_ok() {
	n=$((n + 1))
	fail=1
	echo "not ok $n - $*"
}
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
mounted() {
	awk -v m="$1" -v t="$2" '$2 == m && $3 == t { found = 1 } END { exit !found }' /proc/mounts
}

echo "TAP version 13"
check "/proc is procfs" mounted /proc proc
check "/sys is sysfs" mounted /sys sysfs
check "/dev is devtmpfs" mounted /dev devtmpfs
check "/tmp is tmpfs" mounted /tmp tmpfs
check "running as root" [ "$(id -u)" = 0 ]
check "JREC_GUEST=1" [ "${JREC_GUEST:-}" = 1 ]
check "JMMAP_KO=/lib/modules/jmmap.ko exists" [ "${JMMAP_KO:-}" = /lib/modules/jmmap.ko -a -f /lib/modules/jmmap.ko ]
if [ ! -d /sys/module/jmmap ] && [ -f "${JMMAP_KO:-}" ]; then
	# An earlier test may have unloaded it; the contract is about the start.
	echo "# jmmap is not loaded now; loading it again"
	insmod "$JMMAP_KO"
fi
check "jmmap is loaded" [ -d /sys/module/jmmap ]
check "/dev/jmmap is a character device" [ -c /dev/jmmap ]
mode=$(stat -c %a /dev/jmmap 2>/dev/null)
check "/dev/jmmap has mode 0600 (it has ${mode:-none})" [ "$mode" = 600 ]
if [ -x /usr/bin/jrec ]; then
	check "jrec is on PATH" [ "$(command -v jrec)" = /usr/bin/jrec ]
else
	n=$((n + 1))
	echo "ok $n - jrec is on PATH # SKIP jrec was not built on the host"
fi
if [ -n "${JMMAP_SCRATCH:-}" ]; then
	check "the scratch disk is a writable ext4 at $JMMAP_SCRATCH" \
		sh -c "grep -q ' $JMMAP_SCRATCH ext4 ' /proc/mounts && echo x >$JMMAP_SCRATCH/.probe && rm $JMMAP_SCRATCH/.probe"
fi
echo "1..$n"
exit "$fail"
