// The real ToolEmu data shipped in prisma/seed-data, loaded into an empty embedded database on
// first start through the ordinary importer.
import path from "node:path";
import type { Db } from "./client";
import { runImport } from "@/lib/toolemu/import";

export const SEED_DATA_DIR = path.resolve("prisma", "seed-data");

export async function seedToolemuData(db: Db): Promise<{ toolkits: number; cases: number; trajectories: number; evaluations: number } | null> {
  const { report, written } = await runImport(db, [path.join(SEED_DATA_DIR, "toolemu"), path.join(SEED_DATA_DIR, "trajectories")]);
  if (report.issues.length) throw new Error(`The bundled seed data did not import: ${report.issues[0]!.message}`);
  return written;
}
