# Sourced by the qemu/ scripts: building what goes into the guest.
#
# jmmap is built from a copy of kmod/ per kernel: for the 6.1 kernel through
# DKMS (`make dkms-install`, the installed .ko is what the guest loads), for
# 6.12 and 6.12-rt with `make kmod` into build/kmod-<release>/. JMMAP_QEMU_DKMS=0
# (or not being root) builds 6.1 the plain way too. A kernel built with
# another major version of gcc than the machine's (newest) gets its module
# built in a chroot that has that gcc (chroot.sh).

. "$(dirname "${BASH_SOURCE[0]}")/chroot.sh"

qemu_top() {
	(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
}

qemu_build_dir() {
	echo "${JREC_BUILD:-$(qemu_top)/build}"
}

# qemu_use_dkms SERIES: whether that kernel's module goes through DKMS.
qemu_use_dkms() {
	[ "$1" = 6.1 ] && [ "${JMMAP_QEMU_DKMS:-1}" = 1 ] && [ "$(id -u)" = 0 ] &&
		command -v dkms >/dev/null
}

# The module DKMS installed for a release (possibly compressed).
qemu_dkms_module() {
	find "/lib/modules/$1/updates" -name 'jmmap.ko*' -type f 2>/dev/null | head -n 1
}

# The lock scripts/dkms-install takes (see there).
qemu_dkms_lock() {
	if [ -d /run/lock ]; then echo /run/lock/jmmap-dkms.lock; else echo /tmp/jmmap-dkms.lock; fi
}

# qemu_build_jmmap SERIES RELEASE OUT LOG: build jmmap.ko for the release and
# copy it, uncompressed, to OUT. Build output goes to LOG. Prints where the
# module came from. Through DKMS, the install, `dkms status` (to OUT.dkms-status)
# and the SHA-256 of the installed module (uncompressed, to OUT.dkms-sha256)
# are taken under the DKMS lock, so that another checkout installing at the
# same time cannot come in between.
qemu_build_jmmap() {
	local series=$1 rel=$2 out=$3 log=$4 top ko kcc hcc kdir
	top=$(qemu_top)
	rm -f "$out" "$out".dkms-*
	: >"$log"
	if [ ! -f "$top/kmod/Makefile" ]; then
		echo "kmod/Makefile does not exist" >"$log"
		return 1
	fi
	kcc=$(qemu_headers_cc_major "$series" "$rel" 2>>"$log")
	hcc=$(qemu_host_cc_major)
	if [ -n "$kcc" ] && [ "$kcc" != "$hcc" ]; then
		: >"$log"
		qemu_chroot_build "$series" "$rel" "$kcc" "$out" "$log" || return 1
		echo "built with gcc-$kcc in $(qemu_chroot_dir)"
		return 0
	fi
	if qemu_use_dkms "$series"; then
		(
			flock 9
			JMMAP_DKMS_LOCKED=1 make -C "$top" --no-print-directory dkms-install \
				KERNELRELEASE="$rel" >"$log" 2>&1 || exit 1
			ko=$(qemu_dkms_module "$rel")
			if [ -z "$ko" ]; then
				echo "dkms installed no jmmap.ko under /lib/modules/$rel/updates" >>"$log"
				exit 1
			fi
			dkms status -m jmmap -v "$(cat "$top/VERSION")" -k "$rel" >"$out.dkms-status" 2>&1
			echo "$ko" >"$out.dkms-path"
			qemu_plain_module "$ko" /dev/stdout | sha256sum | cut -d ' ' -f 1 >"$out.dkms-sha256"
			qemu_plain_module "$ko" "$out"
		) 9>"$(qemu_dkms_lock)" || return 1
		echo "dkms: $(cat "$out.dkms-path")"
		return 0
	fi
	ko=$(qemu_build_dir)/kmod-$rel/jmmap.ko
	mkdir -p "$(qemu_build_dir)"
	kdir=$(qemu_kdir "$series" "$rel" 2>>"$log") || {
		echo "no headers for $rel" >>"$log"
		return 1
	}
	# One build at a time in build/kmod-<release>/ (suites and qemu/run may
	# run side by side); the copy is taken before another build can start.
	(
		flock 9
		make -C "$top" --no-print-directory kmod KERNELRELEASE="$rel" KDIR="$kdir" >>"$log" 2>&1 ||
			exit 1
		if [ ! -f "$ko" ]; then
			echo "make kmod left no $ko" >>"$log"
			exit 1
		fi
		qemu_plain_module "$ko" "$out"
	) 9>"$(qemu_build_dir)/kmod-$rel.lock" || return 1
	echo "make kmod: $ko"
}

# qemu_build_selftest_module SERIES RELEASE OUTDIR LOG: the test-only WARN module.
qemu_build_selftest_module() {
	local series=$1 rel=$2 dir=$3 log=$4 kdir
	mkdir -p "$dir"
	kdir=$(qemu_kdir "$series" "$rel" 2>"$log") &&
		cp "$(qemu_top)"/qemu/selftest/{Makefile,Kbuild,jmmap_selftest_warn.c} "$dir/" &&
		make -C "$dir" KDIR="$kdir" >>"$log" 2>&1 &&
		[ -f "$dir/jmmap_selftest_warn.ko" ]
}
