# Sourced by the qemu/ scripts: the guest's initramfs.
#
# A staging directory is filled with busybox-static (one symlink per applet),
# qemu/guest/init as /init, jmmap.ko as /lib/modules/jmmap.ko, jrec as
# /usr/bin/jrec, the guest tests under /tests/guest/, added files under
# /add/, the scratch disk's modules under /lib/modules/extra/, and every
# shared library (and the ELF interpreter) that an executable in it needs,
# at the path ldd names. The directory becomes an uncompressed newc cpio:
# the guest unpacks that faster than anything compressed under TCG.

# Copy the shared libraries and the interpreter an ELF file needs.
qemu_stage_libs() {
	local stage=$1 file=$2 lib
	# Only dynamic ELF files: ldd refuses the rest (scripts, data, static).
	[ "$(head -c 4 "$file" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] || return 0
	ldd "$file" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $3; next }
		$1 ~ /^\// { print $1 }' |
		while IFS= read -r lib; do
			[ -e "$stage$lib" ] && continue
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
}

# qemu_stage_file STAGE SRC DEST: copy a file or directory into the stage,
# with the libraries of every ELF file in it.
qemu_stage_file() {
	local stage=$1 src=$2 dest=$3 f
	mkdir -p "$stage$(dirname "$dest")"
	cp -RL "$src" "$stage$dest" || return 1
	find "$stage$dest" -type f | while IFS= read -r f; do
		qemu_stage_libs "$stage" "$f"
	done
}

qemu_stage_busybox() {
	local stage=$1 bb app
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
	"$bb" --list-full | while IFS= read -r app; do
		[ -e "$stage/$app" ] || ln -s /bin/busybox "$stage/$app"
	done
}

# qemu_stage_scratch_modules STAGE KDIR RELEASE: the modules an ext4 scratch
# disk on virtio-blk needs, decompressed, and their load order in
# /etc/testbed/modules.
qemu_stage_scratch_modules() {
	local stage=$1 kdir=$2 rel=$3 list m base
	list=$(qemu_module_closure "$kdir" "$rel" virtio_pci virtio_blk crc32c_generic ext4) || return 1
	mkdir -p "$stage/lib/modules/extra" "$stage/etc/testbed"
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
	local stage=$1 kdir=$2 rel=$3 ko=$4 top build f
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
	fi
	if [ -d "$build/tests/guest" ]; then
		for f in "$build/tests/guest"/*; do
			[ -e "$f" ] || continue
			qemu_stage_file "$stage" "$f" "/tests/guest/$(basename "$f")" || return 1
		done
	fi
	if [ "${JMMAP_QEMU_SCRATCH:-1}" = 1 ]; then
		qemu_stage_scratch_modules "$stage" "$kdir" "$rel" || return 1
	fi
}

# qemu_pack STAGE OUT: the staging directory as a newc cpio.
qemu_pack() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2"
}
