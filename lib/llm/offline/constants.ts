// Names of the offline model, importable without starting (or bundling) its server.
export const OFFLINE_MODEL_ID = "offline-heuristic";
export const DEFAULT_OFFLINE_PORT = 11435;
