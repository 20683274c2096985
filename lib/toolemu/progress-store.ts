// Progress of the imports running in this server process, polled by the import page. Each
// entry remembers whose import it is (user, session), so only that session is shown it.
import "server-only";
import type { SessionClaims } from "@/lib/auth/sessions";
import type { ImportProgress } from "./analyze";

export type ProgressEntry = ImportProgress & { at: number; owner: SessionClaims };

const g = globalThis as unknown as { __importProgress?: Map<string, ProgressEntry> };
const store = (g.__importProgress ??= new Map());

export function setProgress(id: string, p: ImportProgress, owner: SessionClaims): void {
  store.set(id, { ...p, at: Date.now(), owner });
}

export function getProgress(id: string): ProgressEntry | null {
  return store.get(id) ?? null;
}

export function clearProgress(id: string): void {
  store.delete(id);
}
