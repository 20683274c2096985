// The offline heuristic model's names: the model id it answers to, and what the UI shows beside
// anything it produced. Their own file so client components and lib/llm can import them without
// the model itself (lib/offline, which only tests and scripts start).
export const OFFLINE_MODEL_ID = "offline-heuristic";
export const OFFLINE_MODEL_LABEL = "offline-heuristic (not an LLM)";
