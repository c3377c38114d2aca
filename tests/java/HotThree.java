// SPDX-License-Identifier: GPL-2.0
// HotThree: three hot methods that the JIT compiles, run in turn for a given
// number of seconds. Prints "pid PID" first and, with "perfmap", asks its own
// JVM to write /tmp/perf-PID.map half way through (as `jcmd PID
// Compiler.perfmap` would), printing "perfmap done" when it has.
//
//   java HotThree SECONDS [perfmap]
public class HotThree {
	static long alpha(long x) {
		for (int i = 0; i < 200000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static long beta(long x) {
		for (int i = 0; i < 200000; i++)
			x ^= (x << 13) ^ (x >>> 7) ^ (x << 17);
		return x;
	}

	static long gamma(long x) {
		for (int i = 0; i < 200000; i++)
			x = Long.rotateLeft(x, 5) + i;
		return x;
	}

	public static void main(String[] args) throws Exception {
		long pid = ProcessHandle.current().pid();
		long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
		long half = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 0.5e9);
		boolean dump = args.length > 1 && args[1].equals("perfmap");
		long x = 1;

		System.out.println("pid " + pid);
		System.out.flush();
		while (System.nanoTime() < end) {
			x = alpha(x);
			x = beta(x);
			x = gamma(x);
			if (dump && System.nanoTime() >= half) {
				dump = false;
				String jcmd = System.getProperty("java.home") + "/bin/jcmd";
				Process p = new ProcessBuilder(jcmd, Long.toString(pid), "Compiler.perfmap")
						    .redirectErrorStream(true)
						    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
						    .start();
				p.waitFor();
				System.out.println("perfmap done");
				System.out.flush();
			}
		}
		System.out.println("result " + x);
	}
}
