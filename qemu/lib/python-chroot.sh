# shellcheck shell=bash
# Sourced by tests/suites/40-runtime-python: Debian's own CPython builds
# that bookworm lacks (python3.13, from trixie), in a minimal chroot made
# with mmdebstrap and cached, so that the runtime suite tests real
# interpreters whose binaries exist only inside a container's root (the
# suite runs them with unshare --mount --root):
#   chroot-python/                 the chroot, never changed after it is made
#   chroot-python/.jmmap-chroot    "<suite> <packages>", written last
# It is made again only when that line changes. The archive is the one the
# machine's apt uses (qemu_debian_mirror: its URL is read from the machine's
# sources, never written in the tree), checked with Debian's keyring.
# Debian has no python3.12 in any suite now (trixie and unstable went from
# 3.11 to 3.13), so there is none to take.

. "$(dirname "${BASH_SOURCE[0]}")/kernel.sh"
. "$(dirname "${BASH_SOURCE[0]}")/chroot.sh"

QEMU_PYTHON_SUITE=trixie
QEMU_PYTHON_PACKAGES="python3.13-minimal"

qemu_python_chroot_dir() {
	echo "$(qemu_cache_dir)/chroot-python"
}

# qemu_python_chroot_make LOG: make (or reuse) the chroot. Prints its path;
# on failure the reason is in LOG.
qemu_python_chroot_make() {
	local log=$1
	mkdir -p "$(qemu_cache_dir)" || return 1
	(
		flock 9
		qemu_chroot_cached "$(qemu_python_chroot_dir)" "$QEMU_PYTHON_SUITE $QEMU_PYTHON_PACKAGES" \
			"$QEMU_PYTHON_SUITE" "${QEMU_PYTHON_PACKAGES// /,}" "$log"
	) 9>"$(qemu_cache_dir)/.chroot-python.lock"
}
