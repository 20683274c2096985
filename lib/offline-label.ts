// What the UI shows beside anything the offline heuristic model produced. Its own file so client
// components can import it (lib/llm is server-only).
export const OFFLINE_MODEL_LABEL = "offline-heuristic (not an LLM)";
