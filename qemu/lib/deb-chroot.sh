# Sourced by tests/suites/60-guest-deb: a bookworm chroot to install the
# Debian packages (make deb) in, made with mmdebstrap and cached:
#   chroot-bookworm/                the chroot, never changed after it is made
#   chroot-bookworm/.jmmap-chroot   "<release> <packages>", written last
# It is made again only when the 6.1 release (qemu_resolve_release 6.1) or
# the package list changes. The archive is the machine's own: mmdebstrap
# reads the machine's apt sources files (sources.list, sources.list.d/), so
# no URL is written anywhere in the tree. Each run uses a fresh copy: an
# overlay on top of the cached chroot, its changes in the run's work
# directory (or, where overlayfs cannot be mounted, a full copy).
#
# Beside minbase: the kernel's headers (linux-headers-amd64) and DKMS, the
# libraries jrec links, and man-db and bash-completion to check the man pages
# and the completion, so that installing the packages needs no network.

. "$(dirname "${BASH_SOURCE[0]}")/chroot.sh"

QEMU_DEB_CHROOT_PACKAGES="linux-headers-amd64,dkms,man-db,bash-completion,libelf1,libdw1,liblzma5,libssl3,libprotobuf-c1,libzstd1,zlib1g,libncursesw6,libcapstone4,libtraceevent1,libbpf1"

qemu_deb_chroot_dir() {
	echo "$(qemu_cache_dir)/chroot-bookworm"
}

# The machine's apt sources files, as mmdebstrap arguments.
qemu_machine_apt_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$f" && echo "$f"
	done
}

# qemu_deb_chroot_make RELEASE LOG: make (or reuse) the chroot, whose
# linux-headers-amd64 must be the headers of RELEASE. Prints its path.
qemu_deb_chroot_make() {
	local rel=$1 log=$2 root want tmp
	local -a sources
	root=$(qemu_deb_chroot_dir)
	want="$rel $QEMU_DEB_CHROOT_PACKAGES"
	mkdir -p "$(qemu_cache_dir)"
	(
		flock 9
		if qemu_chroot_current "$root" "$want"; then
			echo "$root"
			exit 0
		fi
		qemu_chroot_can_make "$log" "making the bookworm chroot" || exit 1
		mapfile -t sources < <(qemu_machine_apt_sources)
		if [ ${#sources[@]} -eq 0 ]; then
			echo "no apt sources on this machine to make the chroot from" >>"$log"
			exit 1
		fi
		tmp=$root.new
		rm -rf "$tmp" "$root"
		qemu_log "making the bookworm chroot (linux-headers-$rel, dkms)"
		if ! mmdebstrap --variant=minbase --mode=root --quiet \
			--aptopt='Acquire::Languages "none"' \
			--dpkgopt='path-exclude=/usr/share/locale/*' \
			--include="$QEMU_DEB_CHROOT_PACKAGES" \
			bookworm "$tmp" "${sources[@]}" >>"$log" 2>&1; then
			echo "mmdebstrap failed" >>"$log"
			rm -rf "$tmp"
			exit 1
		fi
		if [ ! -e "$tmp/lib/modules/$rel/build/include" ]; then
			echo "the chroot's linux-headers-amd64 is not for $rel:" \
				"$(ls "$tmp/lib/modules" 2>/dev/null | tr '\n' ' ')(make deps updates the machine's lists)" >>"$log"
			rm -rf "$tmp"
			exit 1
		fi
		echo "$want" >"$tmp/.jmmap-chroot" && mv "$tmp" "$root" || exit 1
		echo "$root"
	) 9>"$(qemu_cache_dir)/.chroot-bookworm.lock"
}

# qemu_deb_chroot_fresh ROOT DIR: a fresh copy of the chroot ROOT at DIR/root
# (an overlay whose changes go to DIR/upper; a copy where that fails), with
# /proc and /dev mounted. Call it in a private mount namespace (unshare
# --mount): the mounts go with it. Prints how the copy was made.
qemu_deb_chroot_fresh() {
	local lower=$1 dir=$2 how
	if qemu_deb_chroot_mounted "$dir"; then
		echo "$dir/root is still mounted" >&2
		return 1
	fi
	rm -rf "$dir"
	mkdir -p "$dir/root" "$dir/upper" "$dir/work" || return 1
	if mount -t overlay overlay -o "lowerdir=$lower,upperdir=$dir/upper,workdir=$dir/work" \
		"$dir/root" 2>/dev/null; then
		how=overlay
	else
		cp -a "$lower/." "$dir/root/" || return 1
		how=copy
	fi
	mount -t proc proc "$dir/root/proc" && mount --rbind /dev "$dir/root/dev" || return 1
	echo "$how"
}

# Whether anything of a fresh copy at DIR is still mounted.
qemu_deb_chroot_mounted() {
	mountpoint -q "$1/root" || mountpoint -q "$1/root/proc" || mountpoint -q "$1/root/dev"
}

# qemu_deb_chroot_remove DIR: unmount the fresh copy at DIR and remove it;
# nothing is removed while anything is still mounted there.
qemu_deb_chroot_remove() {
	local dir=$1
	umount -R "$dir/root/dev" 2>/dev/null
	umount "$dir/root/proc" 2>/dev/null
	umount "$dir/root" 2>/dev/null
	if qemu_deb_chroot_mounted "$dir"; then
		echo "$dir/root is still mounted; left in place" >&2
		return 1
	fi
	rm -rf "$dir"
}

# qemu_deb_chroot_run ROOT COMMAND...: run COMMAND in the chroot with a
# clean environment.
qemu_deb_chroot_run() {
	local root=$1
	shift
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 TERM=dumb \
		DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}
