// The real ToolEmu data the tests read: the project's shared reference data beside the checkout
// when it is there, else the identical copy bundled for the embedded seed (prisma/seed-data).
import { existsSync } from "node:fs";
import path from "node:path";

export function sharedDataDir(): string {
  const fromEnv = process.env.TOOLEMU_SHARED_DATA;
  if (fromEnv) return path.resolve(fromEnv);
  const beside = path.resolve("../shared/data");
  return existsSync(path.join(beside, "toolemu", "all_toolkits.json")) ? beside : path.resolve("prisma", "seed-data");
}
