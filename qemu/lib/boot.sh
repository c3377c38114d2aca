# Sourced by the qemu/ scripts: booting the guest and judging what it did.
#
# A run lives in a work directory:
#   console.log   ttyS0, the kernel console (the only thing the emulated
#                 UART carries but for an interactive session)
#   tty.log       the command's output: hvc0, a virtio console (a tty); an
#                 interactive session runs on ttyS1, the user's terminal
#   ctl.log       virtio port testbed.ctl, the control channel ("@@" lines)
#   out.log       virtio port testbed.out, the guest tests' output, one after
#                 the other (each test's length and SHA-256 are on ctl.log)
#   scratch.img   the ext4 scratch disk (virtio-blk), when enabled
#
# The guest's output travels on virtio, not on the emulated 8250 UARTs: a
# UART takes an interrupt per 16 bytes, and under TCG the threaded interrupt
# of a PREEMPT_RT kernel falls behind and is reported as "irq 3: nobody
# cared" after a megabyte or two. virtio-serial (MSI-X, a page per buffer)
# takes megabytes on every kernel; the console stays on ttyS0 so that the
# kernel's own complaints are read from where the kernel writes them.

# qemu_boot WORK VMLINUZ INITRAMFS INTERACTIVE TIMEOUT
# Returns qemu's status, 124 when the guest was killed at the time-out.
qemu_boot() {
	local work=$1 vmlinuz=$2 initrd=$3 interactive=$4 limit=$5 rc
	local -a args tty
	rm -f "$work/console.log" "$work/tty.log" "$work/ctl.log" "$work/out.log"
	# Single-threaded TCG: the guest still has two CPUs, run in turn on one
	# host thread. With one host thread per vCPU, the kernel's live code
	# patching (static keys, kprobes: int3 plus cross-CPU sync) is not
	# coherent between vCPUs under TCG, and Debian's kernels hit spurious
	# int3 oopses, at boot or when probes are (un)registered.
	# secretmem.enable=1: memfd_secret() is off by default before 6.5 (the
	# guest tests map secret memory on every kernel)
	args=(-nodefaults -no-user-config -no-reboot -display none -vga none
		-machine pc -accel "tcg,thread=${JMMAP_QEMU_TCG_THREAD:-single}" -cpu max
		-smp "${JMMAP_QEMU_SMP:-2}" -m "${JMMAP_QEMU_MEM:-512M}"
		-kernel "$vmlinuz" -initrd "$initrd"
		-append "console=ttyS0,115200 panic=-1 rdinit=/init secretmem.enable=1 ${JMMAP_QEMU_APPEND:-}"
		-chardev "file,id=con,path=$work/console.log" -serial chardev:con)
	if [ "$interactive" = 1 ]; then
		# Ctrl-A x leaves QEMU, Ctrl-A c switches to its monitor.
		# shellcheck disable=SC2054 # the commas are QEMU's
		tty=(-chardev "stdio,id=tty,mux=on,signal=off,logfile=$work/tty.log"
			-serial chardev:tty -mon chardev=tty,mode=readline)
	else
		tty=(-monitor none -chardev "file,id=tty,path=$work/tty.log"
			-device virtconsole,bus=vser.0,chardev=tty,name=testbed.tty)
	fi
	# shellcheck disable=SC2054 # the commas are QEMU's
	args+=(-device virtio-serial-pci,id=vser "${tty[@]}"
		-chardev "file,id=ctl,path=$work/ctl.log"
		-device virtserialport,bus=vser.0,chardev=ctl,name=testbed.ctl
		-chardev "file,id=out,path=$work/out.log"
		-device virtserialport,bus=vser.0,chardev=out,name=testbed.out)
	# -icount: the guest's clock counts executed instructions, not host time
	# (the guest benchmark's setting: its times then do not depend on how
	# busy the host is)
	if [ -n "${JMMAP_QEMU_ICOUNT:-}" ]; then
		args+=(-icount "$JMMAP_QEMU_ICOUNT")
	fi
	# a TCG plugin with its arguments (scripts/guest-profile's counter)
	if [ -n "${JMMAP_QEMU_PLUGIN:-}" ]; then
		args+=(-plugin "$JMMAP_QEMU_PLUGIN")
	fi
	if [ -f "$work/scratch.img" ]; then
		args+=(-drive "file=$work/scratch.img,format=raw,if=virtio,cache=unsafe")
	fi
	if [ "$interactive" = 1 ]; then
		qemu-system-x86_64 "${args[@]}"
		return $?
	fi
	timeout -k 10 "$limit" qemu-system-x86_64 "${args[@]}" </dev/null
	rc=$?
	[ "$rc" -eq 137 ] && rc=124
	return "$rc"
}

# An empty ext4 file system for /mnt/scratch.
qemu_make_scratch() {
	local img=$1
	rm -f "$img"
	truncate -s "${JMMAP_QEMU_SCRATCH_SIZE:-256M}" "$img" &&
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1
}

# The value of a "@@key value" control line (the last one).
qemu_ctl() {
	sed -n "s/^@@$2 //p" "$1/ctl.log" 2>/dev/null | tr -d '\r' | tail -n 1
}

qemu_ctl_has() {
	grep -q "^@@$2\$" "$1/ctl.log" 2>/dev/null
}

# Patterns of a kernel that complained.
QEMU_BAD_CONSOLE='Call Trace:|BUG:|WARNING:|Oops|general protection fault|kernel BUG at|Kernel panic|UBSAN:|KASAN:'
# Taint bits that fail a run: 5 bad page, 7 oops (died), 9 warning, 14 soft
# lockup. 12 (out-of-tree) and 13 (unsigned) are what jmmap itself sets.
QEMU_BAD_TAINT=$(((1 << 5) | (1 << 7) | (1 << 9) | (1 << 14)))

# qemu_taint_names VALUE: the bits set, as "bit N (X)".
qemu_taint_names() {
	local v=$1 i out='' letters=PFSRMBUDAWCIOELKXTN
	for ((i = 0; i < ${#letters}; i++)); do
		((v & (1 << i))) && out="$out bit $i (${letters:i:1})"
	done
	echo "${out# }"
}

# qemu_check_kernel WORK: 0 when the console is clean and the taint is
# acceptable; otherwise print why (with the offending console lines) on
# stdout as "# " lines and return 1.
qemu_check_kernel() {
	local work=$1 bad=0 taint
	if grep -qaE "$QEMU_BAD_CONSOLE" "$work/console.log" 2>/dev/null; then
		echo "# the kernel complained on the console ($work/console.log):"
		grep -naE "$QEMU_BAD_CONSOLE" "$work/console.log" | tr -d '\r' | head -n 40 | sed 's/^/#   console:/'
		echo "#   first report in full:"
		awk -v pat="$QEMU_BAD_CONSOLE" 'found < 30 && (found || $0 ~ pat) { found++; print }' \
			"$work/console.log" | tr -d '\r' | sed 's/^/#   | /'
		bad=1
	fi
	taint=$(qemu_ctl "$work" tainted)
	if [ -z "$taint" ]; then
		echo "# the guest did not report /proc/sys/kernel/tainted"
		bad=1
	elif ((taint & QEMU_BAD_TAINT)); then
		echo "# the guest kernel is tainted $taint: $(qemu_taint_names "$((taint & QEMU_BAD_TAINT))")"
		bad=1
	fi
	return "$bad"
}

# The tail of the console, for a guest that died or hung.
qemu_console_tail() {
	echo "# last console lines ($1/console.log):"
	tail -n "${2:-25}" "$1/console.log" 2>/dev/null | tr -d '\r' | sed 's/^/#   | /'
}
