// What the database holds, in three numbers.
import "server-only";
import type { Db } from "@/lib/db/client";

export interface DataCounts {
  toolkits: number;
  cases: number;
  trajectories: number;
}

export async function getDataCounts(db: Db): Promise<DataCounts> {
  const [toolkits, cases, trajectories] = await Promise.all([db.toolkit.count(), db.testCase.count(), db.trajectory.count()]);
  return { toolkits, cases, trajectories };
}
