#!/bin/sh
# Guest test: the test bed's output channel takes megabytes. Prints 10 MiB of
# numbered 64-byte lines; the host's runner (qemu/guest-suite) fails this
# test unless every byte arrived, by the length and SHA-256 the guest gives
# for each test's output, and the console check fails the run if the kernel
# complained while it was carried (a PREEMPT_RT kernel printing a megabyte or
# two through the emulated UART reported "irq 3: nobody cared").
lines=163840
echo "TAP version 13"
awk -v n="$lines" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "%08d the test bed carries this line whole, in order........\n", i
}'
echo "ok 1 - printed $lines lines of 64 bytes, $((lines * 64)) bytes (the host checks they arrived whole)"
echo "1..1"
