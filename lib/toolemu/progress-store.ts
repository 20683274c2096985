// Progress of the imports running in this server process, polled by the import page.
import "server-only";
import type { ImportProgress } from "./analyze";

const g = globalThis as unknown as { __importProgress?: Map<string, ImportProgress & { at: number }> };
const store = (g.__importProgress ??= new Map());

export function setProgress(id: string, p: ImportProgress): void {
  store.set(id, { ...p, at: Date.now() });
}

export function getProgress(id: string): (ImportProgress & { at: number }) | null {
  return store.get(id) ?? null;
}

export function clearProgress(id: string): void {
  store.delete(id);
}
