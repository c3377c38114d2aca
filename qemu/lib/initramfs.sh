# Sourced by the qemu/ scripts: the guest's initramfs.
#
# A staging directory is filled with busybox-static (its applet links are
# made at boot), qemu/guest/init as /init, jmmap.ko as /lib/modules/jmmap.ko,
# jrec as /usr/bin/jrec, the guest tests under /tests/guest/, added files
# under /add/, the modules loaded at boot (fuse, the scratch disk's) under
# /lib/modules/extra/, and every shared library (and the ELF interpreter)
# that an executable in it needs, at the path ldd names. The directory
# becomes an uncompressed newc cpio: the guest unpacks that faster than
# anything compressed under TCG.

# Copy the shared libraries and the ELF interpreter that the dynamic ELF files
# in the stage need, at the paths ldd names: one ldd over all of them.
qemu_stage_libs() {
	local stage=$1 lib
	find "$stage" -type f ! -name '*.ko' ! -path "$stage/bin/busybox" -print0 |
		xargs -0 -r ldd 2>/dev/null | awk '
			$2 == "=>" && $3 ~ /^\// { print $3; next }
			$1 ~ /^\// && $2 ~ /^\(0x/ { print $1 }' | sort -u |
		while IFS= read -r lib; do
			[ -e "$stage$lib" ] && continue
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
}

# qemu_stage_file STAGE SRC DEST: copy a file or directory into the stage
# (qemu_pack adds the libraries it needs).
qemu_stage_file() {
	mkdir -p "$1$(dirname "$3")" && cp -RL "$2" "$1$3"
}

# busybox-static as /bin/busybox and /bin/sh; /init installs the symlinks of
# the other applets at boot (busybox --install -s), which is much faster
# than making hundreds of them here.
qemu_stage_busybox() {
	local stage=$1 bb
	bb=$(command -v busybox) || {
		qemu_log "busybox is not installed (apt-get install busybox-static)"
		return 1
	}
	if ldd "$bb" >/dev/null 2>&1; then
		qemu_log "$bb is not static (apt-get install busybox-static)"
		return 1
	fi
	mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin"
	cp "$bb" "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
}

# qemu_stage_modules STAGE KDIR RELEASE: the modules the guest loads at boot,
# decompressed, and their load order in /etc/testbed/modules: virtio_pci and
# virtio_console where they are modules (6.1), for the output channels (see
# boot.sh); fuse where the kernel has it as a module (6.1; built in from
# 6.12), for the guest tests' FUSE daemon; and, with a scratch disk
# (JMMAP_QEMU_SCRATCH, default 1), those an ext4 disk on virtio-blk needs,
# with /etc/testbed/scratch telling /init to wait for the disk.
qemu_stage_modules() {
	local stage=$1 kdir=$2 rel=$3 list m base
	local -a want=(virtio_pci virtio_console '?fuse')
	mkdir -p "$stage/lib/modules/extra" "$stage/etc/testbed"
	if [ "${JMMAP_QEMU_SCRATCH:-1}" = 1 ]; then
		want=("${want[@]}" virtio_blk '?crc32c_generic' ext4)
		: >"$stage/etc/testbed/scratch"
	fi
	list=$(qemu_module_closure "$kdir" "$rel" "${want[@]}") || return 1
	: >"$stage/etc/testbed/modules"
	for m in $list; do
		base=$(basename "$m")
		base=${base%%.ko*}.ko
		qemu_plain_module "$kdir/lib/modules/$rel/$m" "$stage/lib/modules/extra/$base" || return 1
		echo "/lib/modules/extra/$base" >>"$stage/etc/testbed/modules"
	done
}

# qemu_stage_base STAGE KDIR RELEASE JMMAP_KO: everything but the mode and
# the added files. JMMAP_KO may be empty (no module to load).
qemu_stage_base() {
	local stage=$1 kdir=$2 rel=$3 ko=$4 top build f so lib
	local -a dl_from=()
	top=$(qemu_top)
	build=$(qemu_build_dir)
	rm -rf "$stage"
	mkdir -p "$stage"/{dev,proc,sys,tmp,run,root,etc/testbed,mnt/scratch,lib/modules,tests/guest}
	# The kernel opens /dev/console before /init mounts devtmpfs.
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null
	qemu_stage_busybox "$stage" || return 1
	install -m 0755 "$top/qemu/guest/init" "$stage/init"
	echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
	echo "nobody:x:65534:65534:nobody:/nonexistent:/bin/false" >>"$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
	if [ -n "$ko" ]; then
		cp "$ko" "$stage/lib/modules/jmmap.ko" || return 1
	fi
	if [ -x "$build/jrec" ]; then
		qemu_stage_file "$stage" "$build/jrec" /usr/bin/jrec || return 1
		dl_from+=("$build/jrec")
	fi
	if [ -d "$build/tests/guest" ] && [ "${JMMAP_QEMU_GUEST_TESTS:-1}" = 1 ]; then
		for f in "$build/tests/guest"/*; do
			[ -e "$f" ] || continue
			qemu_stage_file "$stage" "$f" "/tests/guest/$(basename "$f")" || return 1
			dl_from+=("$f")
		done
	fi
	# the libraries jrec loads with dlopen() when first needed, which ldd does
	# not list: capstone (the first disassembly) and libcrypto (the first
	# content cookie; the guest tests share that code); their sonames are in
	# the binaries
	for so in $(cat "${dl_from[@]}" /dev/null | grep -aoE 'lib(capstone|crypto)\.so\.[0-9]+' | sort -u); do
		lib=$(ldconfig -p | awk -v s="$so" '$1 == s && /x86-64/ { print $NF; exit }')
		if [ -n "$lib" ]; then
			qemu_stage_file "$stage" "$lib" "$lib" || return 1
		fi
	done
	qemu_stage_modules "$stage" "$kdir" "$rel" || return 1
}

# qemu_pack STAGE OUT: the staging directory, with the shared libraries its
# programs need, as a newc cpio.
qemu_pack() {
	qemu_stage_libs "$1" || return 1
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2"
}
