// The pg-boss queue of generation jobs, `generation`: one job per GenerationJob, singleton key =
// its id (stately: at most one queued and one active). The run workers fetch from it beside the
// `episode` queue (../worker.ts); the web app and the CLI only send.
import "server-only";
import type PgBoss from "pg-boss";
import { JOB_EXPIRE_SECONDS, sharedBoss } from "@/lib/jobs/boss";

export const GENERATION_QUEUE = "generation";

export interface GenerationJobData {
  generationJobId: string;
}

const created = new WeakSet<PgBoss>();

/** Creates the queue once per boss (pg-boss's create_queue is idempotent; this saves the round trip). */
export async function ensureGenerationQueue(boss: PgBoss): Promise<void> {
  if (created.has(boss)) return;
  await boss.createQueue(GENERATION_QUEUE, { name: GENERATION_QUEUE, policy: "stately", retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: JOB_EXPIRE_SECONDS });
  created.add(boss);
}

/** What job creation needs (tests may pass a fake). */
export interface GenerationQueue {
  send(generationJobId: string): Promise<void>;
}

export function bossGenerationQueue(boss: PgBoss | Promise<PgBoss>): GenerationQueue {
  return {
    async send(generationJobId) {
      const b = await boss;
      await ensureGenerationQueue(b);
      await b.send(GENERATION_QUEUE, { generationJobId } satisfies GenerationJobData, { singletonKey: generationJobId, retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: JOB_EXPIRE_SECONDS });
    },
  };
}

/** The queue of this process (web app, CLI). */
export function appGenerationQueue(): GenerationQueue {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set.");
  return bossGenerationQueue(sharedBoss(url));
}
