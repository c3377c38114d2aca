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
#   perf-data-edit.py branches IN OUT
#       IN (one event, no call chains) as if recorded with -b: the attr
#       gains PERF_SAMPLE_BRANCH_STACK (any branch, user and kernel), each
#       sample a stack of two entries, its own ip to the previous sample's
#       and back, and the header the BRANCH_STACK feature, as perf record -b
#       writes them (no LBR here).
#   perf-data-edit.py branches IN OUT flags
#       the same, each entry with flags as LBR sets them: the first
#       mispredicted with the sample's cycles (1, 2, 3...), the second
#       predicted, in a transaction every third sample, aborted every fifth,
#       and branch types of every kind.
#   perf-data-edit.py branches IN OUT ahead
#       the same, each sample's stack to the ip of the sample after it in
#       time (and back): a branch that ends in a file no sample has landed
#       in yet.
#   perf-data-edit.py blocks IN OUT PROGRAM
#       IN (one event, no call chains, a recording of PROGRAM, rep_hot) as
#       if recorded with -b on hardware with LBR, the stacks as real as
#       PROGRAM's code makes them (read with objdump): a sample in one of
#       its functions with a loop gets the call into the function (from its
#       caller) and two turns of the loop (its conditional jump back to the
#       loop's head), newest first, so that each branch's target and the
#       next branch's source are a block of the function's instructions;
#       flags vary: predicted or mispredicted, cycles on most entries, an
#       entry in a transaction, and every eleventh sample's newest aborted.
#       The other samples get an empty stack.
#   perf-data-edit.py blocks IN OUT PROGRAM LIST
#       the same, and each stack written to LIST, a line a sample that has
#       one: its entries newest first, FROM:TO:CYCLES each, FROM and TO
#       PROGRAM's addresses (hex), for tests to recompute what the stacks
#       say without reading OUT back.
#   perf-data-edit.py weight IN OUT
#       IN as if recorded with -W: each sample a weight (PERF_SAMPLE_WEIGHT).
#   perf-data-edit.py nochain IN OUT
#       IN (one event, recorded with -g) as if recorded without: the attr
#       and each sample without their call chain (PERF_SAMPLE_CALLCHAIN).
#   perf-data-edit.py fields IN OUT FIELD,...
#       IN (one event, nothing recorded after the call chain) with the sample
#       fields named added to each sample, in perf_event.h's order: uregs
#       (REGS_USER, ABI 64, the registers of USER_REGS below), weight_struct
#       (WEIGHT_STRUCT: a weight and an instruction latency), data_src
#       (DATA_SRC: each sample one of DATA_SRCS, in turn), iregs (REGS_INTR,
#       INTR_REGS), phys_addr (PHYS_ADDR), data_page_size, code_page_size
#       (DATA_PAGE_SIZE, CODE_PAGE_SIZE: each sample one of PAGE_SIZES).
#   perf-data-edit.py bpf-output IN OUT
#       IN (a cpu-clock recording, nothing recorded after the call chain) as
#       a BPF-output event (PERF_COUNT_SW_BPF_OUTPUT) whose samples carry
#       what a BPF program wrote (PERF_SAMPLE_RAW), one of BPF_OUTPUTS in
#       turn: strings ended by NULs, bytes that are not one, none, several
#       lines of them, bytes past 0x7e; the event named bpf-output.
#   perf-data-edit.py synth IN OUT KIND
#       IN (a cpu-clock recording, nothing recorded after the call chain) as
#       one of the events perf synthesizes from an Intel PT trace
#       (PERF_TYPE_SYNTH, config KIND: 0 ptwrite, 1 mwait, 2 pwre, 3
#       exstop, 4 pwrx, 5 cbr, 6 psb, 7 evt, 8 iflag), named as perf names
#       it, each sample's payload in its raw data: one bit set, walking
#       over the payload, every other sample; bytes of a running pattern
#       (a printable ptwrite payload among them) the others; every
#       thirteenth too short. evt: its kinds, vectors and 0 to 3 data.
#   perf-data-edit.py retype IN OUT I:TYPE:CONFIG:NAME,...
#       IN with its I-th event (attr) made another: attr.type TYPE, config
#       CONFIG, named NAME in EVENT_DESC, its scale (EVENT_UPDATE) 1; the
#       samples as they are (a group
#       that reads its counters, -e '{a,b}:S', as if its members counted
#       cycles and instructions, which this machine does not count).
#   perf-data-edit.py retype-desc IN OUT I:TYPE:CONFIG:NAME,...
#       the same in EVENT_DESC's entry only (its copy of the attr, and the
#       name): an entry that disagrees with the attr its ids belong to.
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


SAMPLE_BRANCH_STACK = 1 << 11
# the sample fields that come after the branch stack: none may be recorded
AFTER_BRANCH = (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17) \
    | (1 << 18) | (1 << 19) | (1 << 20) | (1 << 21) | (1 << 22) | (1 << 23)
FEAT_BRANCH_STACK = 15


def sample_times(d, data_off, data_end, st):
    """{record offset: (time, ip)} of each sample"""
    at = 8 + (8 if st & (1 << 16) else 0) + (8 if st & 1 else 0) + (8 if st & 2 else 0)
    out = {}
    for off, typ, size, extra in records(d, data_off, data_end):
        if typ == 9:
            out[off] = (struct.unpack_from('<Q', d, off + at)[0] if st & 4 else off,
                        struct.unpack_from('<Q', d, off + 8)[0])
    return out


def branches(src, dst, flags=False, ahead=False):
    d = bytes(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    if attrs_size != attr_size:
        sys.exit('one event only')
    st = struct.unpack_from('<Q', d, attrs_off + 24)[0]
    if st & (AFTER_BRANCH | (1 << 5) | (1 << 10) | (1 << 4)):  # callchain, raw, read
        sys.exit('sample type %#x has fields this edit does not move' % st)
    attrs = bytearray(d[attrs_off:attrs_off + attrs_size])
    struct.pack_into('<Q', attrs, 24, st | SAMPLE_BRANCH_STACK)
    # branch_sample_type: ANY | USER | KERNEL | HV
    struct.pack_into('<Q', attrs, 72, 0x8 | 0x1 | 0x2 | 0x4)
    data = bytearray()
    prev = None
    nsamples = 0
    nxt = {}
    if ahead:
        by_time = sorted(sample_times(d, data_off, data_off + data_size, st).items(),
                         key=lambda kv: kv[1][0])
        for i, (off, (t, ip)) in enumerate(by_time):
            nxt[off] = by_time[i + 1][1][1] if i + 1 < len(by_time) else ip
    for off, typ, size, extra in records(d, data_off, data_off + data_size):
        rec = d[off:off + size + extra]
        if typ == 9:
            ip = struct.unpack_from('<Q', rec, 8)[0]
            back = nxt[off] if ahead else prev if prev is not None else ip
            f1 = f2 = 0
            if flags:
                # mispred, predicted, in_tx, abort: bits 0-3, cycles: bits 4-19
                n = nsamples % 7 + 1
                # (type: bits 20-23, 0 unknown, 1 COND, 4 CALL, 6 RET... 14 NO_TX)
                f1 = 0x1 | (n << 4) | (0x4 if n % 3 == 0 else 0) | ((nsamples % 15) << 20)
                # (15: the type is new_type's, bits 26-29: 0 FAULT_ALGN... 7 ARCH_5)
                f2 = 0x2 | (0x8 if n % 5 == 0 else 0) | \
                    ((15 | (nsamples // 7 % 8) << 6) << 20 if n == 7 else 0)
            stack = struct.pack('<Q', 2) + struct.pack('<QQQ', ip, back, f1) + \
                struct.pack('<QQQ', back, ip, f2)
            rec = struct.pack('<IHH', typ, struct.unpack_from('<H', rec, 4)[0],
                              size + len(stack)) + rec[8:size] + stack
            prev = ip
            nsamples += 1
        data += rec
    write_edited(d, dst, attrs, data, FEAT_BRANCH_STACK)


def program_code(program):
    """{function: (start, end, loop head, loop's jump back)} of the functions
    with a loop, {function: its call site}, and (p_vaddr - p_offset) of the
    code's PT_LOAD, from objdump's disassembly and the ELF program headers."""
    import re
    import subprocess
    text = subprocess.run(['objdump', '-d', '--no-show-raw-insn', program], check=True,
                          capture_output=True, text=True).stdout
    funcs, calls, cur = {}, {}, None
    insns = []
    for line in text.splitlines():
        m = re.match(r'^([0-9a-f]+) <([^>]+)>:$', line)
        if m:
            cur = m.group(2)
            continue
        m = re.match(r'^ +([0-9a-f]+):\t(\S+)\s*(.*)$', line)
        if m and cur:
            insns.append((cur, int(m.group(1), 16), m.group(2), m.group(3)))
    for i, (fn, at, mnem, ops) in enumerate(insns):
        end = insns[i + 1][1] if i + 1 < len(insns) else at + 1
        lo, hi = funcs.get(fn, (at, end, None, None))[:2]
        head, back = funcs.get(fn, (0, 0, None, None))[2:]
        m = re.match(r'^([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>', ops)
        if mnem.startswith('j') and mnem != 'jmp' and m and m.group(2) == fn and \
                lo <= int(m.group(1), 16) < at:
            head, back = int(m.group(1), 16), at
        if mnem == 'call' and m and m.group(2) != fn:
            calls.setdefault(m.group(2), at)
        funcs[fn] = (min(lo, at), max(hi, end), head, back)
    d = open(program, 'rb').read()
    phoff, = struct.unpack_from('<Q', d, 32)
    phentsize, phnum = struct.unpack_from('<HH', d, 54)
    bias = 0
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr = struct.unpack_from('<IIQQ', d, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            bias = p_vaddr - p_offset
    return {f: v for f, v in funcs.items() if v[2] is not None and f in calls}, calls, bias


def blocks(src, dst, program, listing=None):
    import os
    funcs, calls, bias = program_code(program)
    d = bytes(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    if attrs_size != attr_size:
        sys.exit('one event only')
    st = struct.unpack_from('<Q', d, attrs_off + 24)[0]
    if st & (AFTER_BRANCH | (1 << 5) | (1 << 10) | (1 << 4)):
        sys.exit('sample type %#x has fields this edit does not move' % st)
    attrs = bytearray(d[attrs_off:attrs_off + attrs_size])
    struct.pack_into('<Q', attrs, 24, st | SAMPLE_BRANCH_STACK)
    struct.pack_into('<Q', attrs, 72, 0x8 | 0x1 | 0x2 | 0x4)
    real = os.path.realpath(program)
    maps = []  # (start, end, pgoff) of PROGRAM's code
    data = bytearray()
    listed = []  # each stack written, for LIST
    n = 0
    for off, typ, size, extra in records(d, data_off, data_off + data_size):
        rec = d[off:off + size + extra]
        if typ == 10:  # MMAP2
            start, length, pgoff = struct.unpack_from('<QQQ', rec, 16)
            prot, = struct.unpack_from('<I', rec, 64)
            name = rec[72:size].split(b'\0')[0].decode(errors='replace')
            if prot & 4 and os.path.realpath(name) == real:
                maps.append((start, start + length, pgoff))
        if typ == 9:
            ip = struct.unpack_from('<Q', rec, 8)[0]
            stack = struct.pack('<Q', 0)
            for start, end, pgoff in maps:
                if not start <= ip < end:
                    continue
                vaddr = ip - start + pgoff + bias
                rt = start - pgoff - bias  # a vaddr's run-time address, less the vaddr
                for fn, (lo, hi, head, back) in funcs.items():
                    if not lo <= vaddr < hi:
                        continue
                    # newest first: the loop's jump back twice, then the call into fn
                    cyc = [(n % 5) * 3, n % 4 * 7 + 1, 0 if n % 3 == 0 else 9]
                    f0 = (0x2 if n % 2 else 0x1) | cyc[0] << 4 | (0x8 if n % 11 == 10 else 0)
                    f1 = 0x2 | cyc[1] << 4 | (0x4 if n % 7 == 3 else 0)
                    f2 = 0x2 | cyc[2] << 4
                    ents = [(back, head, f0), (back, head, f1), (calls[fn], lo, f2)]
                    stack = struct.pack('<Q', len(ents)) + b''.join(
                        struct.pack('<QQQ', a + rt, b + rt, f) for a, b, f in ents)
                    listed.append(' '.join('%x:%x:%d' % (a, b, f >> 4 & 0xffff)
                                           for a, b, f in ents))
            rec = struct.pack('<IHH', typ, struct.unpack_from('<H', rec, 4)[0],
                              size + len(stack)) + rec[8:size] + stack
            n += 1
        data += rec
    write_edited(d, dst, attrs, data, FEAT_BRANCH_STACK)
    if listing:
        with open(listing, 'w') as f:
            f.write(''.join(line + '\n' for line in listed))


def write_edited(d, dst, attrs, data, add_feat=None):
    """d with its attrs and data section replaced, the feature sections moved
    after the new data (add_feat: a feature added, with no content)."""
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    feats = list(struct.unpack_from('<4Q', d, 72))
    table = data_off + data_size
    bits = [b for b in range(256) if feats[b // 64] >> (b % 64) & 1]
    secs = {}
    for i, b in enumerate(bits):
        o, n = struct.unpack_from('<QQ', d, table + 16 * i)
        secs[b] = d[o:o + n]
    if add_feat is not None:
        secs[add_feat] = b''
        feats[add_feat // 64] |= 1 << (add_feat % 64)
    bits = sorted(secs)
    new_table = data_off + len(data)
    pos = new_table + 16 * len(bits)
    tab, body = b'', b''
    for b in bits:
        tab += struct.pack('<QQ', pos + len(body), len(secs[b]))
        body += secs[b]
    hdr = bytearray(d[:data_off])
    hdr[attrs_off:attrs_off + attrs_size] = attrs
    struct.pack_into('<Q', hdr, 48, len(data))
    struct.pack_into('<4Q', hdr, 72, *feats)
    open(dst, 'wb').write(bytes(hdr) + bytes(data) + tab + body)


SAMPLE_WEIGHT = 1 << 14


def one_event(src, first_bit, what):
    """The bytes of src, its attr (a copy), its data section and sample type;
    exits unless it has one event whose samples record nothing from first_bit on."""
    d = bytes(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    if attrs_size != attr_size:
        sys.exit('one event only')
    st = struct.unpack_from('<Q', d, attrs_off + 24)[0]
    if st >> first_bit:
        sys.exit('sample type %#x has fields after %s' % (st, what))
    return d, bytearray(d[attrs_off:attrs_off + attrs_size]), data_off, data_size, st


def append_to_samples(d, data_off, data_size, more_of):
    """The data section of d with more_of(n, sample record) appended to the
    n-th sample (bytes, a multiple of 8), the other records as they are."""
    data = bytearray()
    n = 0
    for off, typ, size, extra in records(d, data_off, data_off + data_size):
        rec = d[off:off + size + extra]
        if typ == 9:
            more = more_of(n, rec[:size])
            rec = struct.pack('<IHH', typ, struct.unpack_from('<H', rec, 4)[0],
                              size + len(more)) + rec[8:size] + more
            n += 1
        data += rec
    return data


def weight(src, dst):
    """IN (one event, nothing recorded after the user stack) as if each sample
    carried a weight (perf record -W): 1, 2... 97, then again."""
    d, attrs, data_off, data_size, st = one_event(src, 14, 'the weight')
    struct.pack_into('<Q', attrs, 24, st | SAMPLE_WEIGHT)
    data = append_to_samples(d, data_off, data_size,
                             lambda n, rec: struct.pack('<Q', n % 97 + 1 + (n % 5) * 100000))
    write_edited(d, dst, attrs, data)


SAMPLE_CALLCHAIN = 1 << 5


def nochain(src, dst):
    """IN (one event with call chains) as if recorded without them."""
    d = bytes(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    if attrs_size != attr_size:
        sys.exit('one event only')
    st = struct.unpack_from('<Q', d, attrs_off + 24)[0]
    if not st & SAMPLE_CALLCHAIN or st & (1 << 4):  # read: not of fixed size
        sys.exit('sample type %#x: no call chain, or a read before it' % st)
    # the chain comes after identifier, ip, tid, time, addr, id, stream_id, cpu, period
    at = 8 + 8 * sum(1 for b in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st >> b & 1)
    attrs = bytearray(d[attrs_off:attrs_off + attrs_size])
    struct.pack_into('<Q', attrs, 24, st & ~SAMPLE_CALLCHAIN)
    data = bytearray()
    for off, typ, size, extra in records(d, data_off, data_off + data_size):
        rec = d[off:off + size + extra]
        if typ == 9:
            n = struct.unpack_from('<Q', rec, at)[0]
            cut = 8 + 8 * n
            rec = struct.pack('<IHH', typ, struct.unpack_from('<H', rec, 4)[0],
                              size - cut) + rec[8:at] + rec[at + cut:size]
        data += rec
    write_edited(d, dst, attrs, data)


# sample_type bits, and where each field goes: perf_event.h's order
FIELDS = [('uregs', 1 << 12), ('weight_struct', 1 << 24), ('data_src', 1 << 15),
          ('iregs', 1 << 18), ('phys_addr', 1 << 19), ('data_page_size', 1 << 22),
          ('code_page_size', 1 << 23)]
# x86's AX, BX, SP, IP, FLAGS, R8, R15 and XMM0 (low, high); AX..GS, R8..R15
USER_REGS = (1 << 0) | (1 << 1) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 16) | (1 << 23) \
    | (3 << 32)
INTR_REGS = (1 << 24) - 1
# op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops: decoded each way
DATA_SRCS = [0, 0x1 | 0x1 << 5 | 0x1 << 19 | 0x1 << 24 | 0x1 << 26 | 0x1 << 40,
             0x2 | (0x8 | 0x2) << 5 | 0x2 << 19 | 0x2 << 24 | (0x8 | 0x2) << 26,
             0x4 | (0x20 | 0x4) << 5 | 0x4 << 19 | (0x10 | 0x4) << 26 | 0x2 << 40,
             0x8 | (0x40 | 0x2) << 5 | 0x8 << 19 | 0x20 << 26 | 0x4 << 40 | 0x2 << 33,
             0x10 | 0x80 << 5 | 0x10 << 19 | 0x40 << 26 | 0x1 << 37 | 0x1 << 38,
             0x2 | (0x100 | 0x4) << 5 | 0x3 << 37 | 0x1 << 43 | 0x3 << 33,
             0x2 | (0x200 | 0x2) << 5 | 0x6 << 40 | 0x3 << 43 | 0xd << 33,
             0x2 | 0x2000 << 5 | 0x4 << 19 | 0xb << 33 | 0x2 << 43 | 0x1 << 37,
             0x1 << 33 | 0x1000 << 5, 0x20 | 0x1 << 5 | 0xc << 33 | 0x4 << 43,
             # lvl_num's names (CXL, I/O, PMEM, N/A, L4), op and lock both N/A and more
             0x4 | 0x1c << 26 | 0x2 << 5 | 0x9 << 33, 0x4 | 0xa << 33 | 0x4 << 5, 0x4 | 0xe << 33,
             0x4 | 0xf << 33, 0x4 | 0x4 << 33, 0x1f | 0x3 << 24,
             # decodings longer than perf's line: cut at its 99 characters
             0x2 | (0x3f8 | 0x2) << 5 | 0x1f << 19 | 0x7f << 26 | 0x3 << 38,
             0x2 | (0x18 | 0x2) << 5 | 0x1f << 19 | 0x79 << 26 | 0x3 << 38 | 0x7 << 40]
PAGE_SIZES = [4096, 0, 2 << 20, 1 << 30, 1024, 8192, 64 << 10, 16 << 30]


def fields(src, dst, names):
    d, attrs, data_off, data_size, st = one_event(src, 10, 'the call chain')
    add = [f for f in FIELDS if f[0] in names]
    if len(add) != len(names):
        sys.exit('fields: one of %s' % ', '.join(f[0] for f in FIELDS))
    for _name, bit in add:
        st |= bit
    struct.pack_into('<Q', attrs, 24, st)
    struct.pack_into('<Q', attrs, 80, USER_REGS if 'uregs' in names else 0)
    struct.pack_into('<Q', attrs, 96, INTR_REGS if 'iregs' in names else 0)
    def more_of(n, rec):
        ip = struct.unpack_from('<Q', rec, 8)[0]
        more = b''
        for name, _bit in add:
            if name == 'uregs':  # every fifth sample of a kernel thread: no registers
                regs = [ip + 17 * i + (n << 8) for i in range(bin(USER_REGS).count('1'))]
                more += struct.pack('<Q', 0) if n % 5 == 4 else \
                    struct.pack('<Q%dQ' % len(regs), 2, *regs)
            elif name == 'weight_struct':  # var1_dw: weight, var2_w: instruction latency
                more += struct.pack('<IHH', n % 97 + 1, (n * 37) % 65536 if n % 4 else 7, 0)
            elif name == 'data_src':
                more += struct.pack('<Q', DATA_SRCS[n % len(DATA_SRCS)])
            elif name == 'iregs':
                more += struct.pack('<Q24Q', 2, *[(n << 12) + i * 0x1111 for i in range(24)])
            elif name == 'phys_addr':
                more += struct.pack('<Q', 0 if n % 6 == 5 else 0x1000 * n + (ip & 0xfff))
            else:
                more += struct.pack('<Q', PAGE_SIZES[(n + (name[0] == 'c')) % len(PAGE_SIZES)])
        return more

    data = append_to_samples(d, data_off, data_size, more_of)
    write_edited(d, dst, attrs, data)


SAMPLE_RAW = 1 << 10
BPF_OUTPUTS = [b'hello\0\0\0', b'\x01\x02\x03\x04', b'', b'abcdefghijklmnopq\0',
               b'x\0y\0', b'\0\0\0\0', bytes(range(0x78, 0x100)) + b'\0',
               b'tab\there\0', b'a' * 8, b'%s %d\n\0\0\0\0\0\0']


def bpf_output(src, dst):
    d, attrs, data_off, data_size, st = one_event(src, 10, 'the call chain')
    if struct.unpack_from('<I', attrs, 0)[0] != 1:
        sys.exit('bpf-output: a software event')
    struct.pack_into('<Q', attrs, 8, 10)  # PERF_COUNT_SW_BPF_OUTPUT
    struct.pack_into('<Q', attrs, 24, st | SAMPLE_RAW)

    def raw(n, rec):
        p = BPF_OUTPUTS[n % len(BPF_OUTPUTS)]
        r = struct.pack('<I', len(p)) + p
        return r + b'\0' * (-len(r) % 8)  # the record stays 8-byte aligned

    write_edited(d, dst, attrs, append_to_samples(d, data_off, data_size, raw))
    rename_event(dst, 'bpf-output', attrs)


# the raw data of each kind (perf's struct less the 32 bits it shares with the size), and its name
SYNTH_SIZES = [12, 12, 12, 4, 12, 12, 12, 4, 12]
SYNTH_NAMES = ['ptwrite', 'mwait', 'pwre', 'exstop', 'pwrx', 'cbr', 'psb', 'evt', 'iflag']


def synth(src, dst, kind):
    d, attrs, data_off, data_size, st = one_event(src, 10, 'the call chain')
    struct.pack_into('<I', attrs, 0, 0x80000000)  # PERF_TYPE_SYNTH
    struct.pack_into('<Q', attrs, 8, kind)
    struct.pack_into('<Q', attrs, 24, st | SAMPLE_RAW)
    size = SYNTH_SIZES[kind]

    def payload(n, rec):
        if kind == 7:  # cfe (type, ip, vector, number of data), then the data
            nd = n % 4
            p = struct.pack('<I', n % 32 | (n // 32 % 2) << 7 | (n * 37 % 256) << 8 | nd << 16)
            p += b''.join(struct.pack('<QQ', (n + i) % 64 | 0x40, n * 0x1111 + i) for i in range(nd))
        elif n % 2 == 0:
            k = n // 2 % (size * 8)
            p = bytearray(size)
            p[k // 8] |= 1 << (k % 8)
        elif kind == 0 and n % 7 == 1:
            p = struct.pack('<I', n) + b'abc\0\0\0\0\0'
        else:
            p = bytes((n * 29 + i * 53) & 0xff for i in range(size))
        if n % 13 == 12:  # shorter than the kind's least (perf reads past an evt's data)
            p = p[:size - 4]
        r = struct.pack('<I', len(p)) + bytes(p)
        return r + b'\0' * (-len(r) % 8)

    write_edited(d, dst, attrs, append_to_samples(d, data_off, data_size, payload))
    rename_event(dst, SYNTH_NAMES[kind], attrs)


def rename_event(path, name, attrs):
    """The cpu-clock event's entry in EVENT_DESC named @name (its string
    field is padded: room to spare), its attr the edited one, @attrs."""
    out = bytearray(open(path, 'rb').read())
    at = out.rfind(b'cpu-clock\0\0')
    if at < 0 or len(name) > 10:
        sys.exit('no event named cpu-clock in ' + path)
    out[at:at + len(name) + 1] = name.encode() + b'\0'
    # the entry: its attr, the number of ids and the string's length, the string
    size = struct.unpack_from('<Q', out, 16)[0] - 16
    out[at - 8 - size:at - 8] = attrs[:size]
    open(path, 'wb').write(bytes(out))


def retype(src, dst, specs, desc_only=False):
    d = bytearray(open(src, 'rb').read())
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', d, 16)
    feats = struct.unpack_from('<4Q', d, 72)
    bits = [b for b in range(256) if feats[b // 64] >> (b % 64) & 1]
    if 12 not in bits:
        sys.exit('retype: no EVENT_DESC in ' + src)
    off, size = struct.unpack_from('<QQ', d, data_off + data_size + 16 * bits.index(12))
    # EVENT_DESC: count, attr size, then per event its attr, ids, name (padded) and ids
    nr, asz = struct.unpack_from('<II', d, off)
    entries, at = [], off + 8
    for _i in range(nr):
        nids, slen = struct.unpack_from('<II', d, at + asz)
        entries.append((at, at + asz + 8, slen))
        at += asz + 8 + slen + 8 * nids
    for spec in specs:
        i, typ, config, name = spec.split(':')
        i, typ, config = int(i), int(typ, 0), int(config, 0)
        if i >= attrs_size // attr_size or i >= nr or len(name) >= entries[i][2]:
            sys.exit('retype: no event %d, or its name too long' % i)
        for a in (entries[i][0],) if desc_only else (attrs_off + i * attr_size, entries[i][0]):
            struct.pack_into('<I', d, a, typ)
            struct.pack_into('<Q', d, a + 8, config)
        name_at, slen = entries[i][1], entries[i][2]
        d[name_at:name_at + slen] = name.encode().ljust(slen, b'\0')
        if desc_only:
            continue
        # its EVENT_UPDATE scale (a clock's 1e-6, perf record's) as a counter's: 1
        ids_off, ids_size = struct.unpack_from('<QQ', d, attrs_off + i * attr_size + attr_size - 16)
        ids = set(struct.unpack_from('<%dQ' % (ids_size // 8), d, ids_off))
        for roff, rtyp, _size, _extra in records(d, data_off, data_off + data_size):
            if rtyp == 78 and struct.unpack_from('<QQ', d, roff + 8) [0] == 1 and \
                    struct.unpack_from('<Q', d, roff + 16)[0] in ids:
                struct.pack_into('<d', d, roff + 24, 1.0)
    open(dst, 'wb').write(bytes(d))


if __name__ == '__main__':
    if len(sys.argv) >= 4 and sys.argv[1] == 'auxtrace':
        auxtrace(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 3)
    elif len(sys.argv) in (4, 5) and sys.argv[1] == 'branches':
        if len(sys.argv) == 5 and sys.argv[4] not in ('flags', 'ahead'):
            sys.exit('branches: the fourth argument is "flags", "ahead" or nothing')
        branches(sys.argv[2], sys.argv[3], sys.argv[4:] == ['flags'], sys.argv[4:] == ['ahead'])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == 'blocks':
        blocks(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) == 6 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == 'weight':
        weight(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == 'nochain':
        nochain(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'synth' and sys.argv[4] in '012345678':
        synth(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 5 and sys.argv[1] in ('retype', 'retype-desc'):
        retype(sys.argv[2], sys.argv[3], sys.argv[4].split(','), sys.argv[1] == 'retype-desc')
    elif len(sys.argv) == 4 and sys.argv[1] == 'bpf-output':
        bpf_output(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'fields':
        fields(sys.argv[2], sys.argv[3], sys.argv[4].split(','))
    else:
        sys.exit('usage: perf-data-edit.py auxtrace IN OUT [N] | branches IN OUT [flags|ahead] | '
                 'blocks IN OUT PROGRAM [LIST] | weight IN OUT | nochain IN OUT | fields IN OUT FIELD,... | '
                 'bpf-output IN OUT | synth IN OUT KIND | retype[-desc] IN OUT I:TYPE:CONFIG:NAME,...')
