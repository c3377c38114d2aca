# Sourced by the qemu/ scripts: building jmmap with the kernel's own
# compiler when the machine's is another one.
#
# Debian builds each kernel with one gcc, named in the headers'
# CONFIG_CC_VERSION_TEXT ("x86_64-linux-gnu-gcc-16 (Debian 16.2.0-4) 16.2.0");
# a module must be built with the same major version. Bookworm's kernels use
# bookworm's gcc-12, the machine's own. The newest kernel (unstable) uses a
# newer one: its module is built in a minimal chroot of unstable made with
# mmdebstrap (minbase, plus make, gcc-N and linux-headers-<release>, which
# brings linux-kbuild and pahole), through the same private apt sources as
# the kernel (unstable.sh). The chroot is cached:
#   chroot-unstable/                     the chroot
#   chroot-unstable/.jmmap-chroot        "<headers package> <version>", written last
# and made again only when the headers' package version changes.

qemu_chroot_dir() {
	echo "$(qemu_cache_dir)/chroot-unstable"
}

# qemu_chroot_current ROOT WANT: whether the chroot at ROOT was made for
# WANT, as its stamp (.jmmap-chroot, written last) says. Also for
# deb-chroot.sh's chroot.
qemu_chroot_current() {
	[ -f "$1/.jmmap-chroot" ] && [ "$(cat "$1/.jmmap-chroot")" = "$2" ]
}

# qemu_chroot_can_make LOG WHAT: whether mmdebstrap and root are there for
# WHAT ("making the ... chroot"); if not, the reason goes to LOG.
qemu_chroot_can_make() {
	if ! command -v mmdebstrap >/dev/null; then
		echo "mmdebstrap is not installed (make deps)" >>"$1"
		return 1
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "$2 needs root" >>"$1"
		return 1
	fi
}

# The major version of the gcc a kernel was built with, from the text of a
# .config or autoconf.h on stdin.
qemu_cc_major_of_config() {
	sed -n 's/.*CONFIG_CC_VERSION_TEXT[= ]"[^ ]*gcc[^ ]* ([^)]*) \([0-9]*\)\..*/\1/p' | head -n 1
}

# The major version of the machine's gcc.
qemu_host_cc_major() {
	gcc -dumpversion 2>/dev/null | cut -d . -f 1
}

# qemu_headers_cc_major SERIES RELEASE: the major gcc version the release was
# built with, from the installed headers or, for unstable, from the .config
# in the linux-headers-<release> package (fetched into the cache).
qemu_headers_cc_major() {
	local series=$1 rel=$2 f deb
	for f in "/lib/modules/$rel/build/include/generated/autoconf.h" "/lib/modules/$rel/build/.config"; do
		if [ -f "$f" ]; then
			qemu_cc_major_of_config <"$f"
			return 0
		fi
	done
	qemu_series_unstable "$series" || return 1
	mkdir -p "$(qemu_cache_dir)/debs" || return 1
	deb=$({
		flock 8
		qemu_fetch_deb "$series" "linux-headers-$rel"
	} 8>"$(qemu_cache_dir)/.lock") || return 1
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-headers-$rel/.config" 2>/dev/null |
		qemu_cc_major_of_config
}

# qemu_chroot_mmdebstrap SUITE DIR PACKAGES LOG: a minbase chroot of the
# Debian SUITE at DIR with PACKAGES (comma-separated), from the archive the
# machine's apt uses, checked with Debian's keyring (a suite's Release file
# on a mirror may be past its Valid-Until); no documentation or locales.
# On failure DIR is removed and the reason is in LOG.
qemu_chroot_mmdebstrap() {
	local suite=$1 dir=$2 pkgs=$3 log=$4 mirror
	mirror=$(qemu_debian_mirror 2>>"$log") || return 1
	if ! mmdebstrap --variant=minbase --mode=root --quiet \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--aptopt='Acquire::Languages "none"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--include="$pkgs" "$suite" "$dir" \
		"deb [signed-by=$(qemu_debian_keyring)] $mirror $suite main" >>"$log" 2>&1; then
		echo "mmdebstrap failed" >>"$log"
		rm -rf "$dir"
		return 1
	fi
}

# qemu_chroot_cached ROOT WANT SUITE PACKAGES LOG: the chroot at ROOT,
# made (qemu_chroot_mmdebstrap, beside it first, its stamp written last)
# unless its stamp says WANT already. Prints ROOT. The caller holds the
# chroot's lock.
qemu_chroot_cached() {
	local root=$1 want=$2 suite=$3 pkgs=$4 log=$5
	if qemu_chroot_current "$root" "$want"; then
		echo "$root"
		return 0
	fi
	qemu_chroot_can_make "$log" "making the $suite chroot ($pkgs)" || return 1
	rm -rf "$root.new" "$root"
	qemu_log "making the $suite chroot ($pkgs)"
	qemu_chroot_mmdebstrap "$suite" "$root.new" "$pkgs" "$log" || return 1
	echo "$want" >"$root.new/.jmmap-chroot" && mv "$root.new" "$root" || return 1
	echo "$root"
}

# qemu_chroot_make SERIES RELEASE CC_MAJOR LOG: make (or reuse) the build
# chroot with gcc-CC_MAJOR and linux-headers-RELEASE. Prints its path.
# The caller holds the chroot lock.
qemu_chroot_make() {
	local series=$1 rel=$2 cc=$3 log=$4 root ver want
	root=$(qemu_chroot_dir)
	ver=$(qemu_series_apt "$series" apt-cache policy "linux-headers-$rel" 2>/dev/null |
		sed -n 's/^ *Candidate: *//p')
	want="linux-headers-$rel ${ver:-unknown}"
	qemu_chroot_cached "$root" "$want" unstable "make,gcc-$cc,linux-headers-$rel" "$log"
}

# qemu_chroot_build SERIES RELEASE CC_MAJOR KO LOG: build jmmap.ko for the
# release inside the chroot, in a copy of kmod/ kept there (/build/jmmap,
# copied with its times, so that make rebuilds only what changed), and copy
# it to KO.
qemu_chroot_build() {
	local series=$1 rel=$2 cc=$3 ko=$4 log=$5 top root work
	top=$(qemu_top)
	mkdir -p "$(qemu_cache_dir)"
	(
		flock 9
		root=$(qemu_chroot_make "$series" "$rel" "$cc" "$log") || exit 1
		work=$root/build/jmmap
		rm -f "$work/jmmap.ko"
		"$top/scripts/copy-kmod" "$work" && cp -p "$top/VERSION" "$work/VERSION" || exit 1
		echo "build in the chroot $root (gcc-$cc):" >>"$log"
		# objtool reads /proc: mount one in a private mount namespace,
		# gone with it.
		# shellcheck disable=SC2016 # expanded by the inner sh
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
			unshare --mount --propagation private sh -c \
			'mount -t proc proc "$1/proc" && exec chroot "$1" make -C "$2" KDIR="$3"' \
			sh "$root" /build/jmmap "/usr/src/linux-headers-$rel" >>"$log" 2>&1 || exit 1
		cp "$work/jmmap.ko" "$ko"
	) 9>"$(qemu_cache_dir)/.chroot.lock"
}
