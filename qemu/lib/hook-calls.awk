# The calls the module's hooks can make, from `objdump -dr` of jmmap.ko on
# stdin (qemu/guest-suite). Prints "PATH" for each function matching the
# regular expression BAD (awk -v BAD=...) that a hook reaches through
# calls or tail jumps inside the module: "probe_exec > f > BAD_FUNCTION".
# Calls through pointers are not followed, and a call on a path that the
# code takes only where it may sleep counts too: BAD should list only what
# no hook may reach at all.

# a function's start: "0000000000000120 <probe_exec>:"
/^[0-9a-f]+ <[^>]+>:$/ {
	fn = $2
	sub(/^</, "", fn)
	sub(/>:$/, "", fn)
	next
}
fn == "" { next }
# a call to another object's or another section's function: its relocation
/R_X86_64_(PLT32|PC32)[ \t]/ {
	s = $NF
	sub(/[-+]0x[0-9a-f]+$/, "", s)
	if (last ~ /^(call|jmp)/ && s != fn)
		edge(fn, s)
	next
}
# a call resolved by the assembler: "call 1f0 <jmmap_now>"
/^ +[0-9a-f]+:\t/ {
	ins = $0
	sub(/^ +[0-9a-f]+:\t/, "", ins)
	last = ins
	if (ins ~ /^(call|jmp)[a-z]* +[0-9a-f]+ <[^>+]+>/) {
		t = ins
		sub(/^[^<]*</, "", t)
		sub(/>.*/, "", t)
		if (t != fn)
			edge(fn, t)
	}
}

function edge(from, to) {
	if ((from, to) in seen)
		return
	seen[from, to] = 1
	n[from]++
	e[from, n[from]] = to
}

END {
	split("probe_exec probe_fork probe_exit jmmap_mm_direct mm_ftrace_entry", roots, " ")
	for (i = 1; i in roots; i++) {
		q[++tail] = roots[i]
		path[roots[i]] = roots[i]
		if (!(roots[i] in n))
			print "(no hook " roots[i] " found)"
	}
	while (head < tail) {
		f = q[++head]
		for (k = 1; k <= n[f]; k++) {
			c = e[f, k]
			if (c in path)
				continue
			path[c] = path[f] " > " c
			if (c ~ BAD)
				print path[c]
			else
				q[++tail] = c
		}
	}
}
