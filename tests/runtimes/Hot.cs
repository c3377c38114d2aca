// The C# program of tests/suites/41-runtimes: a hot chain Outer -> Middle ->
// Leaf run for MILLISECONDS; prints the pid first (the perf map is named after it).
//   mono --jitmap hot.exe MILLISECONDS
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

static class Hot {
    [MethodImpl(MethodImplOptions.NoInlining)]
    static ulong Leaf(ulong x) {
        for (int i = 0; i < 2000; i++)
            x = x * 6364136223846793005UL + 1442695040888963407UL;
        return x;
    }
    [MethodImpl(MethodImplOptions.NoInlining)]
    static ulong Middle(ulong x) { return Leaf(x) + 1; }
    [MethodImpl(MethodImplOptions.NoInlining)]
    static ulong Outer(ulong x) {
        for (int i = 0; i < 50; i++)
            x = Middle(x);
        return x;
    }
    static void Main(string[] args) {
        Console.WriteLine(Process.GetCurrentProcess().Id);
        var sw = Stopwatch.StartNew();
        long ms = long.Parse(args[0]);
        ulong x = 1;
        while (sw.ElapsedMilliseconds < ms)
            x = Outer(x);
        Console.WriteLine(x & 0xffff);
    }
}
