// `npm run llm:offline`: the offline heuristic model alone, on localhost, speaking the OpenAI
// chat-completions protocol. Point any endpoint (or another OpenAI client) at the printed URL.
//   OFFLINE_LLM_PORT    port (default 11435)
//   OFFLINE_LLM_HOST    interface (default 127.0.0.1)
//   OFFLINE_LLM_FAULTS  fault mode, e.g. "429=0.05,500=0.05,hang=0.05,malformed=0.05,retryAfter=1,hangMs=90000"
//   OFFLINE_LLM_SEED    seed of the fault RNG (default 1)
import { startOfflineModel, DEFAULT_OFFLINE_PORT } from "@/lib/offline/server";
import { describeFaults } from "@/lib/offline/faults";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import { fail, info } from "./lib/output";

async function main() {
  const port = process.env.OFFLINE_LLM_PORT ? Number(process.env.OFFLINE_LLM_PORT) : DEFAULT_OFFLINE_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`OFFLINE_LLM_PORT=${process.env.OFFLINE_LLM_PORT} is not a port number.`);
  const host = process.env.OFFLINE_LLM_HOST ?? "127.0.0.1";
  const server = await startOfflineModel({ port, host }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "EADDRINUSE") throw new Error(`Port ${port} is already in use (another offline model?). Choose another: OFFLINE_LLM_PORT=${port + 1} npm run llm:offline`);
    throw e;
  });
  console.log(
    [
      ``,
      `  ${OFFLINE_MODEL_LABEL} is serving at ${server.url}`,
      `  model id: offline-heuristic   API key: none needed   faults: ${describeFaults(server.faults)}`,
      ``,
      `  Deterministic rules, not a language model: it exists so the pipeline runs offline.`,
      `  Press Ctrl-C to stop.`,
      ``,
    ].join("\n"),
  );
  const stop = async () => {
    info("Stopping the offline model…");
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((e) => {
  fail(e);
  process.exit(1);
});
