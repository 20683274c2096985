// Keeps a long import's heap near what it really holds. A bulk import allocates ~10× its input in
// short-lived strings and objects; with Node's default limits V8 lets that garbage pile up to
// hundreds of MB before a full collection, several times what is live (bench:import --shape prints
// the peaks). Between batches, when the heap has grown past a threshold, we ask for a full
// collection: cheap while little is live, and the importer's peak RSS no longer depends on the
// input's size.
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Heap in use above which a batch boundary triggers a full collection. */
const THRESHOLD = 96 * 1024 * 1024;

let gc: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  } catch {
    gc = null; // not available (e.g. a restricted runtime): only the peak suffers
  }
  return gc;
}

export function relieveHeap(): void {
  if (getHeapStatistics().used_heap_size < THRESHOLD) return;
  collector()?.();
}
