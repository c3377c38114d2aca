#!/usr/bin/env python3
# Build perf.data test files record by record from one that perf wrote, for
# what this machine's hardware cannot record.
#
#   perf-data-edit.py auxtrace IN OUT [N]
#       IN with N (default 3) PERF_RECORD_AUXTRACE records inserted after the
#       data section's first record, each followed by its payload (4096 + 8*i
#       bytes, outside header.size, as perf writes AUX area data). Works on a
#       file (data size and feature offsets moved) and on a pipe-mode stream.
#
# Little-endian files only (x86-64's).
import struct
import sys

AUXTRACE = 71


def records(d, off, end):
    """(offset, type, size, payload) of each record from off to end."""
    while off + 8 <= end:
        typ, _misc, size = struct.unpack_from('<IHH', d, off)
        if size < 8:
            break
        extra = 0
        if typ == AUXTRACE:
            extra = struct.unpack_from('<Q', d, off + 8)[0]
        elif typ == 66:
            extra = struct.unpack_from('<I', d, off + 8)[0]
        yield off, typ, size, extra
        off += size + extra


def auxtrace_records(n):
    out = b''
    for i in range(n):
        payload = bytes((i * 7 + k) & 0xff for k in range(4096 + 8 * i))
        # size, offset, reference, idx, tid, cpu, reserved
        body = struct.pack('<QQQIIII', len(payload), i * 8192, 0x1234 + i, 0, 0, 0, 0)
        out += struct.pack('<IHH', AUXTRACE, 0, 8 + len(body)) + body + payload
    return out


def auxtrace(src, dst, n):
    d = bytearray(open(src, 'rb').read())
    hsize = struct.unpack_from('<Q', d, 8)[0]
    ins = auxtrace_records(n)
    if hsize == 16:  # pipe mode: after the first sample or mmap, wherever it is
        for off, typ, size, _extra in records(d, 16, len(d)):
            if typ < 64:
                at = off + size
                break
        else:
            sys.exit('no kernel record in ' + src)
        open(dst, 'wb').write(bytes(d[:at]) + ins + bytes(d[at:]))
        return
    data_off, data_size = struct.unpack_from('<QQ', d, 40)
    first = next(records(d, data_off, data_off + data_size))
    at = first[0] + first[2]
    delta = len(ins)
    end = data_off + data_size
    struct.pack_into('<Q', d, 48, data_size + delta)
    # event_types (jrec's table of private sections), when after the data
    et_off = struct.unpack_from('<Q', d, 56)[0]
    if et_off >= end:
        struct.pack_into('<Q', d, 56, et_off + delta)
    feats = struct.unpack_from('<4Q', d, 72)
    nfeat = sum(bin(f).count('1') for f in feats)
    for i in range(nfeat):
        o = end + 16 * i
        foff = struct.unpack_from('<Q', d, o)[0]
        if foff >= end:
            struct.pack_into('<Q', d, o, foff + delta)
    open(dst, 'wb').write(bytes(d[:at]) + ins + bytes(d[at:]))


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[1] != 'auxtrace':
        sys.exit('usage: perf-data-edit.py auxtrace IN OUT [N]')
    auxtrace(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 3)
