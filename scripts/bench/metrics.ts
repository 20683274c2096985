// Metrics benchmark (not a test): Cohen's κ in three weightings plus bootstrap 95% CIs
// (1,000 resamples) over 100,000 rating pairs; goal < 200 ms for the lot. Prints the median of
// several runs per step and the ratio to the goal. Usage:
//   npm run bench:metrics -- [--n 100000] [--resamples 1000] [--runs 7] [--seed 20240917]
//                            [--compare-items]   (also time the O(resamples × n) item bootstrap once)
//                            [--strict]          (exit 1 when the goal is missed)
import { performance } from "node:perf_hooks";
import {
  agreementIntervals,
  bootstrap,
  cohenKappa,
  confusionFromPairs,
  mulberry32,
  type ConfidenceInterval,
  type KappaResult,
  type Weighting,
} from "@/lib/metrics";
import { parseArgs, stringFlag } from "../lib/args";

const args = parseArgs(process.argv.slice(2));
const N = Number(stringFlag(args, "n") ?? 100_000);
const RESAMPLES = Number(stringFlag(args, "resamples") ?? 1000);
const RUNS = Number(stringFlag(args, "runs") ?? 7);
const SEED = Number(stringFlag(args, "seed") ?? 20240917);
const GOAL_MS = 200;
const WEIGHTINGS: Weighting[] = ["categorical", "linear", "quadratic"];

/** Correlated pairs like two judges: the second agrees 60% of the time, else is one step off. */
function pairs(n: number, seed: number): [number[], number[]] {
  const rng = mulberry32(seed);
  const a = new Array<number>(n);
  const b = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const x = Math.floor(rng() * 4);
    const step = rng() < 0.6 ? 0 : rng() < 0.5 ? -1 : 1;
    a[i] = x;
    b[i] = Math.min(3, Math.max(0, x + step));
  }
  return [a, b];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x.toFixed(2).padStart(8)} ms`;
const show = (k: KappaResult) => (k.undefined ? `undefined (${k.reason})` : k.value.toFixed(4));
const showCi = (c: ConfidenceInterval) => (c.undefined ? `undefined (${c.reason})` : `[${c.lower.toFixed(4)}, ${c.upper.toFixed(4)}]`);

function main() {
  const [r1, r2] = pairs(N, SEED);
  const times = { count: [] as number[], kappa: [] as number[], ci: [] as number[], total: [] as number[] };
  let kappas: KappaResult[] = [];
  let intervals: ReturnType<typeof agreementIntervals> | undefined;
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const cm = confusionFromPairs(r1, r2);
    const t1 = performance.now();
    kappas = WEIGHTINGS.map((w) => cohenKappa(cm, w));
    const t2 = performance.now();
    intervals = agreementIntervals(cm, { seed: SEED, resamples: RESAMPLES });
    const t3 = performance.now();
    times.count.push(t1 - t0);
    times.kappa.push(t2 - t1);
    times.ci.push(t3 - t2);
    times.total.push(t3 - t0);
  }

  // The numbers must be right before their speed means anything.
  const ok = kappas.every((k, i) => {
    const c = intervals![WEIGHTINGS[i]!];
    return !k.undefined && !c.undefined && c.lower <= k.value && k.value <= c.upper && c.skipped === 0;
  });
  const total = median(times.total);
  const ratio = total / GOAL_MS;
  const row = (label: string, time: number, rest = "") => `${label.padEnd(40)}${ms(time)}${rest ? `   ${rest}` : ""}`;
  const lines = [
    row(`confusion matrix from ${N.toLocaleString("en")} pairs`, median(times.count)),
    row("κ categorical / linear / quadratic", median(times.kappa), kappas.map(show).join(" / ")),
    row(
      `bootstrap 95% CIs, ${RESAMPLES.toLocaleString("en")} resamples`,
      median(times.ci),
      WEIGHTINGS.map((w) => `${w} ${showCi(intervals![w])}`).join(", ") + " (+ binarized κ, raw agreement, mean bias)",
    ),
    row("total", total, `ratio ${ratio.toFixed(3)} (goal ≤ 1, i.e. < ${GOAL_MS} ms)${ratio > 1 ? "   GOAL MISSED" : ""}`),
    `runs ${RUNS} (median; total min ${Math.min(...times.total).toFixed(2)} ms, max ${Math.max(...times.total).toFixed(2)} ms), seed ${SEED}, node ${process.version}`,
    `CIs contain the point estimates, no resample skipped: ${ok ? "yes" : "NO"}`,
  ];

  if (args.flags["compare-items"]) {
    // Reference only: the generic item bootstrap rebuilds the matrix from n pairs per resample.
    const items = r1.map((x, i) => [x, r2[i]!] as const);
    const t0 = performance.now();
    const ci = bootstrap(items, (s) => cohenKappa(confusionFromPairs(s.map((p) => p[0]), s.map((p) => p[1])), "quadratic"), {
      seed: SEED,
      resamples: RESAMPLES,
    });
    lines.push(row("reference: item bootstrap, quadratic κ, 1 run", performance.now() - t0, showCi(ci)));
  }

  console.log(`\nbench:metrics — Cohen's κ + bootstrap CIs\n${lines.map((l) => `  ${l}`).join("\n")}`);
  if (!ok || (args.flags.strict && ratio > 1)) process.exitCode = 1;
}

try {
  main();
} catch (e) {
  console.error(`bench:metrics failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
