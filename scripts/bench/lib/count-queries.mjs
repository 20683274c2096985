// Preloaded into a benchmark's worker (`bench:run --count-queries`): counts the SQL statements the
// process sends through `pg` (Prisma's adapter and pg-boss both use it), by their first 110
// characters, and writes the counts as JSON to BENCH_COUNT_QUERIES_FILE when the process exits.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";

const require = createRequire(`${process.cwd()}/package.json`);
const pg = require("pg");
const counts = {};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (q, ...rest) {
  const text = typeof q === "string" ? q : (q?.text ?? "?");
  const key = text.replace(/\s+/g, " ").trim().slice(0, 110);
  counts[key] = (counts[key] ?? 0) + 1;
  return query.call(this, q, ...rest);
};
process.on("exit", () => {
  if (process.env.BENCH_COUNT_QUERIES_FILE) writeFileSync(process.env.BENCH_COUNT_QUERIES_FILE, JSON.stringify(counts));
});
