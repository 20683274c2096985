// Fixtures for the run tests and the run benchmark: the real ToolEmu toolkits and cases, and
// model endpoints pointing at a local OpenAI-compatible server.
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { runImport } from "@/lib/toolemu/import";
import { sharedDataDir } from "./shared-data";

export async function importCases(db: Db): Promise<number> {
  const res = await runImport(db, [path.join(sharedDataDir(), "toolemu")]);
  return res.written?.cases ?? 0;
}

export interface TestEndpoints {
  agent: string;
  agent2: string;
  emulator: string;
  evaluator: string;
}

/** Four endpoints on `baseUrl` (the offline model or a loopback test server). */
export async function createEndpoints(
  db: Db,
  baseUrl: string,
  opts: { maxConcurrency?: number; timeoutMs?: number; price?: number; offline?: boolean; cache?: boolean } = {},
): Promise<TestEndpoints> {
  const mk = (name: string) =>
    db.modelEndpoint.create({
      data: {
        name,
        baseUrl,
        model: "offline-heuristic",
        maxConcurrency: opts.maxConcurrency ?? 4,
        timeoutMs: opts.timeoutMs ?? 10_000,
        priceInputPer1k: opts.price ?? 0.001,
        priceOutputPer1k: opts.price ? opts.price * 2 : 0.002,
        offline: opts.offline ?? true,
        cacheEnabled: opts.cache ?? false,
      },
      select: { id: true },
    });
  const [agent, agent2, emulator, evaluator] = await Promise.all([mk("test-agent"), mk("test-agent-2"), mk("test-emulator"), mk("test-evaluator")]);
  return { agent: agent.id, agent2: agent2.id, emulator: emulator.id, evaluator: evaluator.id };
}
