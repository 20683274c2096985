// Child process of `bench:import --shape`: imports the given paths into DATABASE_URL with the code
// the CLI runs (runImport over a Prisma client), then prints one JSON line with its own wall time
// and peak RSS. A separate process, so the peak is the importer's alone (not the benchmark's or
// the embedded database's).
import { createPrisma } from "@/lib/db/client";
import { runImport } from "@/lib/toolemu/import";

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const paths = process.argv.slice(2);
  const prisma = createPrisma(url);
  // When the first "writing" progress event came (the end of the analysis pass), and the CPU used by then.
  const writing: { at: number; cpu: NodeJS.CpuUsage | null } = { at: 0, cpu: null };
  // Where the memory is: the peaks of V8's heap and of memory outside it (Buffers), sampled.
  const peak = { heapTotal: 0, heapUsed: 0, external: 0, rss: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
    peak.rss = Math.max(peak.rss, m.rss);
  };
  const sampler = setInterval(sample, 100);
  sampler.unref();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const r = await runImport(prisma, paths, {
      onProgress: (p) => {
        if (p.phase !== "writing" || writing.at) return;
        writing.at = performance.now();
        writing.cpu = process.cpuUsage(cpu0);
      },
    });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    sample();
    console.log(
      JSON.stringify({
        ms,
        analysisMs: (writing.at || t0 + ms) - t0,
        // CPU time (user + system) of this process: on a shared machine, what the wall times are made of.
        cpuMs: (cpu.user + cpu.system) / 1000,
        analysisCpuMs: ((writing.cpu ?? cpu).user + (writing.cpu ?? cpu).system) / 1000,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        peak,
        issues: r.report.issues.slice(0, 3),
        changes: r.changes,
        written: r.written,
      }),
    );
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
