# The Python program of tests/suites/40-runtime-python and the guest rows
# (tests/lib/runtimes-guest.sh): a hot chain outer -> middle -> leaf run for
# SECONDS of CPU time. Run as /tmp/prog.py (the suites' reports name its
# functions py::FUNC:/tmp/prog.py).
#   python3.13 -X perf|perf_jit /tmp/prog.py SECONDS
import sys, time

def leaf(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

def middle(n):
    return leaf(n) + 1

def outer(secs):
    end = time.process_time() + secs
    t = 0
    while time.process_time() < end:
        t += middle(20000)
    return t

outer(float(sys.argv[1]))
