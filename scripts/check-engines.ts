// `npm run check:engines` (also run by .ci/run): fails when a direct dependency declares a Node
// engine that the README's Node version does not satisfy. Transitive dependencies are theirs
// to pin; a direct one we can always choose.
import { checkEngines } from "./lib/engines";

try {
  const { supported, checked, problems } = checkEngines(process.cwd());
  if (problems.length > 0) {
    console.error(`Direct dependencies that refuse Node ${supported} (the README's promise):`);
    for (const p of problems) console.error(`  ${p.dependency}@${p.version} requires node ${p.requires} (refuses ${p.refuses})`);
    console.error("Pin a release that supports it, or raise the README's Node version and package.json engines together.");
    process.exit(1);
  }
  console.log(`engines: ${checked} direct dependencies accept node ${supported}`);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
