// Which direct dependencies would refuse a Node version we promise? The README states it
// ("Needs Node.js ≥ X") and package.json's engines.node must say the same. Every direct
// dependency must accept that oldest version and the newest release of each even-numbered (LTS)
// Node line after it: odd lines are short-lived and most packages' ranges skip them
// (`^20.19 || ^22.12 || >=24`), so "every version ≥ X" would be a promise nobody keeps.
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";

export type EngineProblem = { dependency: string; version: string; requires: string; refuses: string };

/** "Needs Node.js ≥ 20.19" → ">=20.19"; null when the README does not say. */
export function readmeNodeRange(readme: string): string | null {
  const m = readme.match(/Needs Node\.js\s*(?:≥|>=)\s*(\d+(?:\.\d+){0,2})/);
  return m ? `>=${m[1]}` : null;
}

// LTS lines checked beyond the minimum's own; extend when a new even line ships.
const LTS_MAJORS = [20, 22, 24, 26];

/** The Node versions a promise of `supported` (">=20.19") stands for. */
export function promisedVersions(supported: string): string[] {
  const min = semver.minVersion(supported);
  if (!min) throw new Error(`cannot read a minimum Node version from ${JSON.stringify(supported)}`);
  const latest = LTS_MAJORS.filter((m) => m >= min.major).map((m) => `${m}.999.0`);
  return [min.version, ...latest];
}

/** Dependencies whose declared engines.node refuses one of the versions we promise. */
export function engineProblems(
  supported: string,
  deps: { name: string; version: string; engines?: Record<string, string> | string[] }[],
): EngineProblem[] {
  const problems: EngineProblem[] = [];
  const versions = promisedVersions(supported);
  for (const d of deps) {
    // An old npm convention allowed an array here; it carries no node range we could check.
    const node = d.engines && !Array.isArray(d.engines) ? d.engines.node : undefined;
    if (!node) continue;
    const refused = semver.validRange(node) ? versions.find((v) => !semver.satisfies(v, node)) : versions[0];
    if (refused) {
      problems.push({ dependency: d.name, version: d.version, requires: node, refuses: refused });
    }
  }
  return problems;
}

/** Checks the installed tree at `root`; throws with a readable message when anything is off. */
export function checkEngines(root: string): { supported: string; checked: number; problems: EngineProblem[] } {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    engines?: { node?: string };
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const fromReadme = readmeNodeRange(readFileSync(path.join(root, "README.md"), "utf8"));
  if (!fromReadme) throw new Error("README.md: no 'Needs Node.js ≥ X' line to check the dependencies against");
  const declared = pkg.engines?.node;
  if (!declared || !semver.validRange(declared) || semver.minVersion(declared)?.version !== semver.minVersion(fromReadme)?.version) {
    throw new Error(`package.json engines.node is ${JSON.stringify(declared)}, but README.md says ${fromReadme}: make them agree`);
  }
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).sort();
  const deps = names.map((name) => {
    const file = path.join(root, "node_modules", name, "package.json");
    let manifest: { version: string; engines?: Record<string, string> | string[] };
    try {
      manifest = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      throw new Error(`${name}: ${file} is missing; run npm install first`);
    }
    return { name, version: manifest.version, engines: manifest.engines };
  });
  return { supported: fromReadme, checked: deps.length, problems: engineProblems(fromReadme, deps) };
}
