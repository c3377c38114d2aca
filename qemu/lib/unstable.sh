# Sourced by the qemu/ scripts: Debian unstable, reached through a private
# apt configuration, for the "newest" kernel.
#
# The machine's own apt sources are never touched. The archive URL is taken
# from them (the first non-security "deb" source in
# /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; or
# JMMAP_QEMU_DEBIAN_MIRROR), and apt runs with its state, lists, cache and
# sources list under the test-bed cache:
#   unstable/sources.list     generated here, signed by debian-archive-keyring
#   unstable/{state,lists,cache}/
# The lists are refreshed when they are older than
# JMMAP_QEMU_UNSTABLE_MAX_AGE seconds (default 6 hours); when that fails, the
# lists fetched before are used.

qemu_unstable_dir() {
	echo "$(qemu_cache_dir)/unstable"
}

# The Debian archive URL the machine's apt uses.
qemu_debian_mirror() {
	local f url
	if [ -n "${JMMAP_QEMU_DEBIAN_MIRROR:-}" ]; then
		echo "$JMMAP_QEMU_DEBIAN_MIRROR"
		return 0
	fi
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas: the URIs of one whose Types has deb and whose
		# Suites are not (only) the security archive's.
		url=$(awk '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && suites != "" && suites !~ /-security/ && uris != "")
					{ split(uris, u, " "); print u[1]; found = 1; exit }
				types = suites = uris = ""
			}
			/^[ \t]*$/ { flush(); next }
			/^#/ { next }
			tolower($1) == "types:" { $1 = ""; types = $0 }
			tolower($1) == "suites:" { $1 = ""; suites = $0 }
			tolower($1) == "uris:" { $1 = ""; sub(/^ +/, ""); uris = $0 }
			END { if (!found) flush() }' "$f")
		if [ -n "$url" ]; then
			echo "${url%/}"
			return 0
		fi
	done
	if [ -f /etc/apt/sources.list ]; then
		url=$(awk '$1 == "deb" {
				i = 2
				if ($2 ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++
				if ($2 ~ /^\[/) i++
				if ($(i + 1) !~ /-security/) { print $i; exit }
			}' /etc/apt/sources.list)
		if [ -n "$url" ]; then
			echo "${url%/}"
			return 0
		fi
	fi
	qemu_log "no Debian archive in the machine's apt sources (set JMMAP_QEMU_DEBIAN_MIRROR)"
	return 1
}

# The keyring unstable's Release is verified with.
qemu_debian_keyring() {
	echo /usr/share/keyrings/debian-archive-keyring.gpg
}

# apt's options for the private configuration, one a line (read them into an
# array: mapfile -t opts < <(qemu_unstable_apt_opts)).
qemu_unstable_apt_opts() {
	local d
	d=$(qemu_unstable_dir)
	printf '%s\n' \
		-o "Dir::State=$d/state" -o "Dir::State::Lists=$d/lists" \
		-o "Dir::State::status=$d/state/status" -o "Dir::Cache=$d/cache" \
		-o "Dir::Etc::SourceList=$d/sources.list" -o "Dir::Etc::SourceParts=/dev/null" \
		-o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=/dev/null" \
		-o "APT::Architecture=amd64" -o "APT::Architectures=amd64" \
		-o "Acquire::Languages=none" -o "Acquire::Check-Valid-Until=false"
}

# apt-get or apt-cache with the private configuration.
qemu_unstable_apt() {
	local cmd=$1 opts
	shift
	mapfile -t opts < <(qemu_unstable_apt_opts)
	"$cmd" "${opts[@]}" "$@"
}

# Write the sources list and refresh the lists when they are missing or old.
# Serialised by the cache lock's sibling, unstable/.lock.
qemu_unstable_update() {
	local d mirror age max stamp line
	d=$(qemu_unstable_dir)
	mirror=$(qemu_debian_mirror) || return 1
	if [ ! -f "$(qemu_debian_keyring)" ]; then
		qemu_log "$(qemu_debian_keyring) is missing (apt-get install debian-archive-keyring)"
		return 1
	fi
	mkdir -p "$d/state" "$d/lists/partial" "$d/cache/archives/partial" || return 1
	line="deb [signed-by=$(qemu_debian_keyring)] $mirror unstable main"
	(
		flock 9
		[ -f "$d/state/status" ] || : >"$d/state/status"
		if [ "$(cat "$d/sources.list" 2>/dev/null)" != "$line" ]; then
			echo "$line" >"$d/sources.list"
			rm -f "$d/lists.stamp"
		fi
		max=${JMMAP_QEMU_UNSTABLE_MAX_AGE:-21600}
		stamp=$(stat -c %Y "$d/lists.stamp" 2>/dev/null || echo 0)
		age=$(($(date +%s) - stamp))
		[ "$age" -lt "$max" ] && exit 0
		qemu_log "updating the package lists of Debian unstable"
		if ! qemu_unstable_apt apt-get -q update >"$d/update.log" 2>&1; then
			qemu_log "apt-get update for unstable failed:"
			tail -n 5 "$d/update.log" >&2
			# Lists fetched before still name a kernel (maybe cached).
			[ -f "$d/lists.stamp" ] && qemu_log "using the lists fetched before" && exit 0
			exit 1
		fi
		touch "$d/lists.stamp"
	) 9>"$d/.lock"
}
