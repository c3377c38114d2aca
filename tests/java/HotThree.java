// SPDX-License-Identifier: GPL-2.0
// HotThree: three hot methods that the JIT compiles, run in turn for a given
// number of seconds. Prints "pid PID" first and, with "perfmap", runs `jcmd
// PID Compiler.perfmap` on itself half way through, so that its JVM writes
// /tmp/perf-PID.map while the work goes on, printing "perfmap done STATUS"
// when jcmd has finished.
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
		Process jcmd = null;
		long x = 1;

		System.out.println("pid " + pid);
		System.out.flush();
		while (System.nanoTime() < end) {
			x = alpha(x);
			x = beta(x);
			x = gamma(x);
			if (dump && System.nanoTime() >= half) {
				/* the work goes on while jcmd attaches and the map is written */
				dump = false;
				jcmd = new ProcessBuilder(System.getProperty("java.home") + "/bin/jcmd",
							  Long.toString(pid), "Compiler.perfmap")
					       .redirectErrorStream(true)
					       .redirectOutput(ProcessBuilder.Redirect.DISCARD)
					       .start();
			}
			if (jcmd != null && !jcmd.isAlive()) {
				System.out.println("perfmap done " + jcmd.exitValue());
				System.out.flush();
				jcmd = null;
			}
		}
		if (jcmd != null)
			System.out.println("perfmap done " + jcmd.waitFor());
		System.out.println("result " + x);
	}
}
