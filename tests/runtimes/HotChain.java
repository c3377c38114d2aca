// The Java program of tests/suites/41-runtimes: a hot chain outer -> middle ->
// leaf run for MILLISECONDS; prints the pid first (the perf map is named after it).
//   java -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions
//        -XX:+DumpPerfMapAtExit -XX:-Inline HotChain MILLISECONDS
public class HotChain {
    static long leaf(long x) {
        for (int i = 0; i < 2000; i++)
            x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }
    static long middle(long x) { return leaf(x) + 1; }
    static long outer(long x) {
        for (int i = 0; i < 50; i++)
            x = middle(x);
        return x;
    }
    public static void main(String[] args) {
        System.out.println(ProcessHandle.current().pid());
        long end = System.currentTimeMillis() + Long.parseLong(args[0]);
        long x = 1;
        while (System.currentTimeMillis() < end)
            x = outer(x);
        System.out.println(x & 0xffff);
    }
}
