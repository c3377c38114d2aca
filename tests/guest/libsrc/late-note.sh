#!/bin/sh
# Build libjm_late.so: a shared library whose GNU build-id note is not in the
# first 4 KiB, nor in any PT_NOTE segment. It is linked without an id, then a
# .note.gnu.build-id section (SHT_NOTE, not loaded) is appended at the end of
# the file, carrying the SHA-1 of the linked file as its 20-byte id.
#   late-note.sh CC SOURCE OUTPUT
set -eu
cc=$1 src=$2 out=$3
tmp=$out.tmp
$cc -shared -fPIC -O2 -DJM_VARIANT=7 -DJM_PAD -Wl,--build-id=none -o "$tmp" "$src"
id=$(sha1sum "$tmp" | cut -c1-40)
# Elf_Nhdr {namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID)}, "GNU\0", id
{
	printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000'
	for b in $(echo "$id" | sed 's/../& /g'); do
		printf "\\$(printf %o "0x$b")"
	done
} > "$tmp.note"
objcopy --add-section .note.gnu.build-id="$tmp.note" \
	--set-section-flags .note.gnu.build-id=readonly \
	--set-section-alignment .note.gnu.build-id=4 "$tmp" "$out"
rm -f "$tmp" "$tmp.note"
off=$(readelf -SW "$out" | sed -n 's/.*\.note\.gnu\.build-id *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
if [ -z "$off" ] || [ $((0x$off)) -le 4096 ]; then
	echo "late-note.sh: the note of $out is at offset 0x$off, not past 4 KiB" >&2
	exit 1
fi
test "$(readelf -n "$out" | sed -n 's/.*Build ID: //p')" = "$id"
