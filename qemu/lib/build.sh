# Sourced by the qemu/ scripts: building what goes into the guest.
#
# jmmap is built from a copy of kmod/ per kernel: for the 6.1 kernel through
# DKMS (`make dkms-install`, the installed .ko is what the guest loads), for
# 6.12 with `make kmod` into build/kmod-<release>/. JMMAP_QEMU_DKMS=0 (or not
# being root) builds 6.1 the plain way too.

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

# qemu_build_jmmap SERIES RELEASE OUT LOG: build jmmap.ko for the release and
# copy it, uncompressed, to OUT. Build output goes to LOG. Prints where the
# module came from.
qemu_build_jmmap() {
	local series=$1 rel=$2 out=$3 log=$4 top ko
	top=$(qemu_top)
	if [ ! -f "$top/kmod/Makefile" ]; then
		echo "kmod/Makefile does not exist" >"$log"
		return 1
	fi
	if qemu_use_dkms "$series"; then
		make -C "$top" --no-print-directory dkms-install KERNELRELEASE="$rel" >"$log" 2>&1 ||
			return 1
		ko=$(qemu_dkms_module "$rel")
		if [ -z "$ko" ]; then
			echo "dkms installed no jmmap.ko under /lib/modules/$rel/updates" >>"$log"
			return 1
		fi
		echo "dkms: $ko"
	else
		make -C "$top" --no-print-directory kmod KERNELRELEASE="$rel" >"$log" 2>&1 || return 1
		ko=$(qemu_build_dir)/kmod-$rel/jmmap.ko
		[ -f "$ko" ] || {
			echo "make kmod left no $ko" >>"$log"
			return 1
		}
		echo "make kmod: $ko"
	fi
	qemu_plain_module "$ko" "$out"
}

# qemu_build_selftest_module RELEASE OUTDIR LOG: the test-only WARN module.
qemu_build_selftest_module() {
	local rel=$1 dir=$2 log=$3
	mkdir -p "$dir"
	cp "$(qemu_top)"/qemu/selftest/{Makefile,Kbuild,jmmap_selftest_warn.c} "$dir/" &&
		make -C "$dir" KDIR="/lib/modules/$rel/build" >"$log" 2>&1 &&
		[ -f "$dir/jmmap_selftest_warn.ko" ]
}
