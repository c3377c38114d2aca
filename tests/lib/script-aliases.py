# SPDX-License-Identifier: GPL-2.0
# script-aliases.py same|unalias PERF JREC: perf script's and jrec script's
# outputs of one recording, line by line. jrec picks perf's name among the
# symbols at one address (libc's __wmemchr_ifunc, not wmemchr; kallsyms'
# last alias); a frame may differ only where perf 6.1 names a PLT entry by
# the zero-sized `_init` before .plt (its symbol found first, as in
# 30-report's rep_plt) and jrec names it `NAME@plt`: the same address and
# file. "same": whether they are the same so (why not on stdout);
# "unalias": JREC's lines with each such frame given PERF's name, for a
# comparison of names.
import re, sys
mode = sys.argv[1]
a = open(sys.argv[2]).read().split('\n')
b = open(sys.argv[3]).read().split('\n')
# a frame: a chain's line, or the end of a sample's own line (everything before its address kept)
frame = re.compile(r'^(.*?[0-9a-f]+ )(\S+?)(\+0x[0-9a-f]+)?( \([^()]*\))?$')


def alias(x, y):
    fx, fy = frame.match(x.strip('\t')), frame.match(y.strip('\t'))
    if not (fx and fy and fx.group(1) == fy.group(1) and fx.group(4) == fy.group(4)):
        return False
    return fx.group(2) == '_init' and fy.group(2).endswith('@plt')


if mode == 'unalias':
    if len(a) == len(b):
        b = [x if x != y and alias(x, y) else y for x, y in zip(a, b)]
    sys.stdout.write('\n'.join(b))
    sys.exit(0)
if len(a) != len(b):
    print(f'{len(a)} lines from perf, {len(b)} from jrec')
    sys.exit(1)
bad = 0
for i, (x, y) in enumerate(zip(a, b)):
    if x == y or alias(x, y):
        continue
    bad += 1
    if bad <= 3:
        print(f'line {i + 1}: perf: {x!r}')
        print(f'line {i + 1}: jrec: {y!r}')
print(f'{bad} lines differ' if bad else 'same')
sys.exit(1 if bad else 0)
