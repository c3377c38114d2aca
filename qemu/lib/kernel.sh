# Sourced by the qemu/ scripts: which Debian kernels the test bed boots, and
# fetching them into a cache outside the git tree.
#
# Two kernels, named by their series: "6.1" is bookworm's default
# (linux-image-amd64), "6.12" is linux-image-6.12-amd64. The release (ABI
# number included) is resolved from the meta package at run time.
#
# Cache layout ($JMMAP_QEMU_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/jmmap-qemu):
#   debs/                     the downloaded .deb files
#   kernels/<release>/        dpkg -x of linux-image-<release>, depmod run on it
#   kernels/<release>/.done   written last: the unpack is complete

qemu_cache_dir() {
	echo "${JMMAP_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jmmap-qemu}"
}

qemu_log() {
	echo "qemu: $*" >&2
}

# The image meta package and the headers meta package of a series.
qemu_meta_image() {
	case "$1" in
	6.1) echo linux-image-amd64 ;;
	6.12) echo linux-image-6.12-amd64 ;;
	*) return 1 ;;
	esac
}

qemu_meta_headers() {
	case "$1" in
	6.1) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	*) return 1 ;;
	esac
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
	ver=$(apt-cache policy "$meta" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	apt-cache show "$meta=$ver" 2>/dev/null | sed -n 's/^Depends: //p' | head -n 1 |
		qemu_release_from_depends linux-image
}

# The release the installed headers meta package depends on.
qemu_installed_headers_release() {
	local meta
	meta=$(qemu_meta_headers "$1") || return 1
	dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null | qemu_release_from_depends linux-headers
}

qemu_image_available() {
	local ver
	ver=$(apt-cache policy "linux-image-$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ]
}

# Print the kernel release of a series ("6.1" or "6.12"). It is the release
# of the image meta package's candidate; if the headers for it are not
# installed (the archive moved on after `make deps`), the release of the
# installed headers is used when its image is still in the archive.
#
# A caller that resolved it already may pass it on in JMMAP_QEMU_RELEASE_6_1
# or JMMAP_QEMU_RELEASE_6_12 (apt-cache takes seconds on a busy machine).
# The answer is also remembered in the cache, keyed by the modification
# times of apt's package lists and dpkg's status file, so it is asked again
# only after `apt-get update` or an install.
qemu_resolve_release() {
	local series=$1 key memo rel
	key="$(stat -c %Y /var/lib/apt/lists /var/lib/dpkg/status 2>/dev/null | tr '\n' ' ')"
	memo=$(qemu_cache_dir)/release-$series
	if [ -f "$memo" ] && [ "$(sed -n 1p "$memo")" = "$key" ]; then
		rel=$(sed -n 2p "$memo")
		if [ -n "$rel" ] && [ -d "/lib/modules/$rel/build" ]; then
			echo "$rel"
			return 0
		fi
	fi
	rel=$(qemu_resolve_release_apt "$series") || return 1
	mkdir -p "$(dirname "$memo")" && printf '%s\n%s\n' "$key" "$rel" >"$memo.$$" &&
		mv "$memo.$$" "$memo"
	echo "$rel"
}

qemu_resolve_release_apt() {
	local series=$1 rel hrel known
	case "$series" in
	6.1) known=${JMMAP_QEMU_RELEASE_6_1:-} ;;
	6.12) known=${JMMAP_QEMU_RELEASE_6_12:-} ;;
	*)
		qemu_log "unknown kernel '$series' (use 6.1 or 6.12)"
		return 1
		;;
	esac
	if [ -n "$known" ] && [ -d "/lib/modules/$known/build" ]; then
		echo "$known"
		return 0
	fi
	rel=$(qemu_candidate_release "$series") || rel=
	if [ -n "$rel" ] && [ -d "/lib/modules/$rel/build" ]; then
		echo "$rel"
		return 0
	fi
	hrel=$(qemu_installed_headers_release "$series") || hrel=
	if [ -n "$hrel" ] && [ -d "/lib/modules/$hrel/build" ] && qemu_image_available "$hrel"; then
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

# Download and unpack linux-image-<release> into the cache (once), then print
# the unpacked directory. Serialised with other fetches by a lock.
qemu_fetch_kernel() {
	local rel=$1 cache dir pkg deb tmp rc
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
		deb=$(ls "$cache/debs/${pkg}_"*.deb 2>/dev/null | head -n 1)
		if [ -z "$deb" ]; then
			qemu_log "downloading $pkg"
			(cd "$cache/debs" && apt-get download -q "$pkg" 2>&1 |
				grep -v 'unsandboxed as root' >&2)
			deb=$(ls "$cache/debs/${pkg}_"*.deb 2>/dev/null | head -n 1)
		fi
		[ -n "$deb" ] || continue
		tmp=$cache/kernels/.unpack-$rel
		rm -rf "$tmp" "$dir"
		qemu_log "unpacking $(basename "$deb")"
		if ! dpkg -x "$deb" "$tmp"; then
			rm -rf "$tmp"
			continue
		fi
		if [ ! -f "$tmp/boot/vmlinuz-$rel" ]; then
			qemu_log "$(basename "$deb") has no boot/vmlinuz-$rel"
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
# are left out.
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
				if (name in builtin) continue
				if (!(name in path)) { print "missing module " name > "/dev/stderr"; bad = 1; continue }
				visit(path[name])
			}
			exit bad
		}' "$kdir/lib/modules/$rel/modules.dep" "$kdir/lib/modules/$rel/modules.builtin"
}
