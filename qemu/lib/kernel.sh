# Sourced by the qemu/ scripts: which Debian kernels the test bed boots, and
# fetching them into a cache outside the git tree.
#
# Four kernels, named by their series: "6.1" is bookworm's default
# (linux-image-amd64), "6.12" is linux-image-6.12-amd64, "6.12-rt" its
# PREEMPT_RT flavour (linux-image-6.12-rt-amd64), and "newest" the kernel of
# Debian unstable's linux-image-amd64, reached through a private apt
# configuration (unstable.sh). The release (ABI number included) is resolved
# from the meta package at run time.
#
# Cache layout ($JMMAP_QEMU_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/jmmap-qemu):
#   debs/                     the downloaded .deb files
#   kernels/<release>/        dpkg -x of the kernel's packages, depmod run on it
#   kernels/<release>/.done   written last: the unpack is complete
#   unstable/                 the private apt configuration (unstable.sh)
#   chroot-unstable/          the build chroot of the newest kernel (chroot.sh)
#   chroot-bookworm/          where 60-guest-deb installs the packages (deb-chroot.sh)
#   chroot-python/            the runtime suite's python3.13, from trixie (python-chroot.sh)
#   headers/<release>/        the headers of a bookworm kernel the machine has not
#                             installed, unpacked (qemu_kdir)

. "$(dirname "${BASH_SOURCE[0]}")/unstable.sh"

qemu_cache_dir() {
	echo "${JMMAP_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jmmap-qemu}"
}

qemu_log() {
	echo "qemu: $*" >&2
}

# The series the test bed knows, for messages.
QEMU_SERIES="6.1, 6.12, 6.12-rt or newest"

# The image meta package and the headers meta package of a series.
qemu_meta_image() {
	case "$1" in
	6.1 | newest) echo linux-image-amd64 ;;
	6.12) echo linux-image-6.12-amd64 ;;
	6.12-rt) echo linux-image-6.12-rt-amd64 ;;
	*) return 1 ;;
	esac
}

qemu_meta_headers() {
	case "$1" in
	6.1 | newest) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	6.12-rt) echo linux-headers-6.12-rt-amd64 ;;
	*) return 1 ;;
	esac
}

# Whether a series comes from Debian unstable (the private apt) rather than
# from the machine's own apt sources.
qemu_series_unstable() {
	[ "$1" = newest ]
}

# apt-get or apt-cache for a series: the machine's, or the private one.
qemu_series_apt() {
	local series=$1
	shift
	if qemu_series_unstable "$series"; then
		qemu_unstable_apt "$@"
	else
		"$@"
	fi
}

# The variable that may hold a release resolved already:
# JMMAP_QEMU_RELEASE_6_1, _6_12, _6_12_RT, _NEWEST.
qemu_release_var() {
	echo "JMMAP_QEMU_RELEASE_$(echo "$1" | tr 'a-z.-' 'A-Z__')"
}

# The first linux-image-* (or linux-headers-*) name in a Depends line, as a
# release string.
qemu_release_from_depends() {
	local prefix=$1
	tr ',|' '\n\n' | sed -n "s/^ *$prefix-\\([^ (]*\\).*/\\1/p" | head -n 1
}

# The release the image meta package's candidate version depends on.
qemu_candidate_release() {
	local meta ver
	meta=$(qemu_meta_image "$1") || return 1
	ver=$(qemu_series_apt "$1" apt-cache policy "$meta" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	qemu_series_apt "$1" apt-cache show "$meta=$ver" 2>/dev/null | sed -n 's/^Depends: //p' |
		head -n 1 | qemu_release_from_depends linux-image
}

# The release the installed headers meta package depends on.
qemu_installed_headers_release() {
	local meta
	meta=$(qemu_meta_headers "$1") || return 1
	dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null | qemu_release_from_depends linux-headers
}

# Whether the machine's apt has a candidate for PACKAGE.
qemu_apt_has() {
	local ver
	ver=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ]
}

# Print the kernel release of a series (see QEMU_SERIES). For the bookworm
# series it is the release of the image meta package's candidate; if the
# headers for it are not installed (the archive moved on after `make deps`),
# the release of the installed headers is used when its image is still in
# the archive. For "newest" it is the release unstable's linux-image-amd64
# depends on; its headers live in the build chroot, not on the machine.
#
# A caller that resolved it already may pass it on in JMMAP_QEMU_RELEASE_6_1,
# _6_12, _6_12_RT or _NEWEST (apt-cache takes seconds on a busy machine).
# The answer is also remembered in the cache, keyed by the modification
# times of apt's package lists and dpkg's status file (for "newest", of the
# private lists), so it is asked again only after an update or an install.
qemu_resolve_release() {
	local series=$1 key memo rel
	qemu_meta_image "$series" >/dev/null || {
		qemu_log "unknown kernel '$series' (use $QEMU_SERIES)"
		return 1
	}
	if qemu_series_unstable "$series"; then
		rel=$(qemu_known_release "$series") && { echo "$rel"; return 0; }
		qemu_unstable_update || return 1
		key="$(stat -c %Y "$(qemu_unstable_dir)/lists.stamp" 2>/dev/null)"
	else
		key="$(stat -c %Y /var/lib/apt/lists /var/lib/dpkg/status 2>/dev/null | tr '\n' ' ')"
	fi
	memo=$(qemu_cache_dir)/release-$series
	if [ -f "$memo" ] && [ "$(sed -n 1p "$memo")" = "$key" ]; then
		rel=$(sed -n 2p "$memo")
		if [ -n "$rel" ] && qemu_headers_ok "$series" "$rel"; then
			echo "$rel"
			return 0
		fi
	fi
	rel=$(qemu_resolve_release_apt "$series") || return 1
	mkdir -p "$(dirname "$memo")" && printf '%s\n%s\n' "$key" "$rel" >"$memo.$$" &&
		mv "$memo.$$" "$memo"
	echo "$rel"
}

# Whether jmmap can be built for the release: the machine has its headers,
# the archive has them for qemu_kdir to unpack, or (newest) the build
# chroot will.
qemu_headers_ok() {
	qemu_series_unstable "$1" || qemu_installed_headers "$2" || qemu_apt_has "linux-headers-$2"
}

# Whether the machine's own headers of RELEASE are to be used (installed, and
# JMMAP_QEMU_HEADERS is not "cache").
qemu_installed_headers() {
	[ "${JMMAP_QEMU_HEADERS:-}" != cache ] && [ -d "/lib/modules/$1/build/include" ]
}

# qemu_kdir SERIES RELEASE: the directory modules for the release are built
# against. The machine's installed headers (/lib/modules/RELEASE/build) when
# it has them; else, for a bookworm series, the release's headers packages
# (the flavour's, the common ones and kbuild) unpacked into the cache's
# headers/RELEASE/ without installing them: bookworm's 6.12 headers depend
# on their kernel image, and installing that would also make it the
# machine's default boot kernel. The flavour's Makefile names the common
# headers by absolute path; that one line is pointed into the cache. The
# newest kernel's headers are in its build chroot instead (chroot.sh).
qemu_kdir() {
	local series=$1 rel=$2 cache root
	if qemu_installed_headers "$rel"; then
		echo "/lib/modules/$rel/build"
		return 0
	fi
	qemu_series_unstable "$series" && return 1
	cache=$(qemu_cache_dir)
	root=$cache/headers/$rel
	if [ ! -f "$root/.done" ]; then
		mkdir -p "$cache/headers" "$cache/debs" || return 1
		(
			flock 9
			[ -f "$root/.done" ] && exit 0
			qemu_log "unpacking the headers of $rel into the cache"
			pkgs="linux-headers-$rel $(apt-cache show "linux-headers-$rel" 2>/dev/null |
				sed -n 's/^Depends: //p' | head -n 1 | tr ',|' '\n\n' |
				sed -n 's/^ *\(linux-headers-[^ ]*-common[^ ]*\|linux-kbuild-[^ ]*\).*/\1/p')"
			tmp=$root.tmp.$$
			rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
			for p in $pkgs; do
				deb=$(qemu_fetch_deb "$series" "$p") && dpkg -x "$deb" "$tmp" || exit 1
			done
			sed -i "s|^include /usr/src/|include $root/usr/src/|" \
				"$tmp/usr/src/linux-headers-$rel/Makefile" || exit 1
			rm -rf "$root" && mv "$tmp" "$root" && : >"$root/.done"
		) 9>"$cache/headers/.lock" || return 1
	fi
	echo "$root/usr/src/linux-headers-$rel"
}

# The release passed on in JMMAP_QEMU_RELEASE_<SERIES>, if usable.
qemu_known_release() {
	local known var
	var=$(qemu_release_var "$1")
	known=${!var:-}
	[ -n "$known" ] && qemu_headers_ok "$1" "$known" && echo "$known"
}

qemu_resolve_release_apt() {
	local series=$1 rel hrel
	if rel=$(qemu_known_release "$series"); then
		echo "$rel"
		return 0
	fi
	rel=$(qemu_candidate_release "$series") || rel=
	if [ -n "$rel" ] && qemu_headers_ok "$series" "$rel"; then
		echo "$rel"
		return 0
	fi
	if qemu_series_unstable "$series"; then
		qemu_log "cannot resolve the $series kernel: no candidate for $(qemu_meta_image "$series")" \
			"in Debian unstable (see $(qemu_unstable_dir)/update.log)"
		return 1
	fi
	hrel=$(qemu_installed_headers_release "$series") || hrel=
	if [ -n "$hrel" ] && qemu_installed_headers "$hrel" && qemu_apt_has "linux-image-$hrel"; then
		echo "$hrel"
		return 0
	fi
	if [ -z "$rel" ]; then
		qemu_log "cannot resolve the $series kernel: no candidate for $(qemu_meta_image "$series")" \
			"(run 'apt-get update' or 'make deps')"
	else
		qemu_log "headers for $rel are not installed: run 'make deps'" \
			"(or apt-get install linux-headers-$rel)"
	fi
	return 1
}

# qemu_fetch_deb SERIES PACKAGE: the package's .deb in the cache's debs/,
# downloaded with the series' apt when it is not there yet. Prints its path.
qemu_fetch_deb() {
	local series=$1 pkg=$2 debs deb
	debs=$(qemu_cache_dir)/debs
	deb=$(ls -t "$debs/${pkg}_"*.deb 2>/dev/null | head -n 1)
	# `make deps` may have fetched it already (the headers of bookworm's
	# kernels pull in their images): apt keeps what it downloads.
	if [ -z "$deb" ] && [ "$series" != newest ]; then
		deb=$(ls -t "/var/cache/apt/archives/${pkg}_"*.deb 2>/dev/null | head -n 1)
		if [ -n "$deb" ] && cp "$deb" "$debs/"; then
			qemu_log "using $(basename "$deb") from apt's cache"
			deb=$debs/$(basename "$deb")
		else
			deb=
		fi
	fi
	if [ -z "$deb" ]; then
		qemu_log "downloading $pkg"
		(cd "$debs" && qemu_series_apt "$series" apt-get download -q "$pkg" 2>&1 |
			grep -v 'unsandboxed as root' >&2)
		deb=$(ls -t "$debs/${pkg}_"*.deb 2>/dev/null | head -n 1)
	fi
	[ -n "$deb" ] && echo "$deb"
}

# The linux-binary-, linux-modules- and linux-base- packages of the release
# that an image package depends on (7.x splits the kernel into these).
qemu_image_parts() {
	local deb=$1 rel=$2
	dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | awk -v rel="$rel" '
		{ name = $1 }
		name == "linux-binary-" rel || name == "linux-modules-" rel || name == "linux-base-" rel { print name }'
}

# Download and unpack the kernel of a release into the cache (once), then
# print the unpacked directory; SERIES says which apt to ask (default: the
# machine's). Serialised with other fetches by a lock.
#
# Up to 6.12, linux-image-<release> (or its -unsigned twin) holds
# boot/vmlinuz-<release> and lib/modules/<release>/. From 7.x it is an empty
# package that depends on linux-binary-<release>
# (usr/lib/modules/<release>/vmlinuz), linux-modules-<release> and
# linux-base-<release> (modules.builtin); these are unpacked together and
# boot/vmlinuz-<release> and lib/modules/ made links into usr/lib/, so that
# every kernel's tree reads the same.
qemu_fetch_kernel() {
	local rel=$1 series=${2:-} cache dir pkg deb part tmp rc ok
	cache=$(qemu_cache_dir)
	dir=$cache/kernels/$rel
	if [ -f "$dir/.done" ]; then
		echo "$dir"
		return 0
	fi
	mkdir -p "$cache/debs" "$cache/kernels" || return 1
	exec 8>"$cache/.lock"
	flock 8
	if [ -f "$dir/.done" ]; then
		exec 8>&-
		echo "$dir"
		return 0
	fi
	rc=1
	for pkg in "linux-image-$rel" "linux-image-$rel-unsigned"; do
		deb=$(qemu_fetch_deb "$series" "$pkg") || continue
		tmp=$cache/kernels/.unpack-$rel
		rm -rf "$tmp" "$dir"
		qemu_log "unpacking $(basename "$deb")"
		if ! dpkg -x "$deb" "$tmp"; then
			rm -rf "$tmp"
			continue
		fi
		ok=1
		if [ ! -f "$tmp/boot/vmlinuz-$rel" ]; then
			for part in $(qemu_image_parts "$deb" "$rel"); do
				deb=$(qemu_fetch_deb "$series" "$part") || { ok=0; break; }
				qemu_log "unpacking $(basename "$deb")"
				dpkg -x "$deb" "$tmp" || { ok=0; break; }
			done
		fi
		if [ -d "$tmp/usr/lib/modules/$rel" ] && [ ! -e "$tmp/lib/modules" ]; then
			mkdir -p "$tmp/lib" && ln -s ../usr/lib/modules "$tmp/lib/modules"
		fi
		if [ ! -e "$tmp/boot/vmlinuz-$rel" ] && [ -f "$tmp/usr/lib/modules/$rel/vmlinuz" ]; then
			mkdir -p "$tmp/boot" && ln -s "../usr/lib/modules/$rel/vmlinuz" "$tmp/boot/vmlinuz-$rel"
		fi
		if [ "$ok" = 0 ] || [ ! -f "$tmp/boot/vmlinuz-$rel" ]; then
			qemu_log "$pkg: no kernel image for $rel (boot/vmlinuz-$rel or a linux-binary package)"
			rm -rf "$tmp"
			continue
		fi
		# Debian runs depmod at install time; the package has no modules.dep.
		if ! depmod -b "$tmp" "$rel"; then
			rm -rf "$tmp"
			continue
		fi
		mv "$tmp" "$dir" && touch "$dir/.done" && rc=0
		break
	done
	exec 8>&-
	if [ "$rc" -ne 0 ]; then
		qemu_log "could not fetch a kernel image for $rel"
		return 1
	fi
	echo "$dir"
}

# Copy a kernel module to a plain .ko, decompressing .xz/.zst/.gz: busybox
# insmod loads only uncompressed modules.
qemu_plain_module() {
	local src=$1 dst=$2
	case "$src" in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -q -dc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*) cp "$src" "$dst" ;;
	esac
}

# Print, one a line and dependencies first, the module files (relative to
# lib/modules/<release>/) needed to load the named modules. Builtin modules
# are left out; a name written "?name" is left out too when the kernel has
# no such module (crc32c_generic is gone in 7.x, where ext4 calls the crc32c
# library directly).
qemu_module_closure() {
	local kdir=$1 rel=$2
	shift 2
	awk -v want="$*" '
		FNR == 1 { file++ }
		file == 1 {
			sub(/:$/, "", $1); mod = $1
			n = split(mod, p, "/"); base = p[n]; sub(/\.ko.*$/, "", base)
			gsub(/-/, "_", base)
			path[base] = mod
			deps[mod] = ""
			for (i = 2; i <= NF; i++) deps[mod] = deps[mod] " " $i
			next
		}
		file == 2 {
			n = split($1, p, "/"); base = p[n]; sub(/\.ko.*$/, "", base)
			gsub(/-/, "_", base); builtin[base] = 1
		}
		function visit(m,   k, d, i) {
			if (m in seen) return
			seen[m] = 1
			k = split(deps[m], d, " ")
			for (i = k; i >= 1; i--) visit(d[i])
			print m
		}
		END {
			n = split(want, w, " ")
			for (i = 1; i <= n; i++) {
				name = w[i]; gsub(/-/, "_", name)
				opt = sub(/^\?/, "", name)
				if (name in builtin) continue
				if (!(name in path)) {
					if (opt) continue
					print "missing module " name > "/dev/stderr"; bad = 1; continue
				}
				visit(path[name])
			}
			exit bad
		}' "$kdir/lib/modules/$rel/modules.dep" "$kdir/lib/modules/$rel/modules.builtin"
}
