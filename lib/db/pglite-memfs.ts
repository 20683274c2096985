// Linear-time file growth for the in-memory PGlite (`startEmbedded({ inMemory: true })`: tests'
// throwaway databases, the benchmarks). Such a PGlite keeps every relation file in Emscripten's
// MEMFS, one Uint8Array per file.
//
// PostgreSQL extends a table by up to 64 pages at a time when it loads in bulk (COPY), with
// posix_fallocate. Emscripten turns that into ftruncate, and MEMFS resizes the file's array to
// exactly the new size: a new array and a copy of the whole file for every 512 kB added. Loading
// N MB into one table costs O(N²) — with PGlite 0.5.14, one 32 MB COPY took 42 s, and each further
// COPY of a transaction took longer than the last, because the table's file had grown. (Plain
// writes grow the array geometrically, but only by 1/8 above 1 MB.)
//
// Here a file that grows gets half its size again as spare capacity (the bytes past its end stay
// zero, as MEMFS expects), so appending N bytes copies O(N) in all; shrinking is left as it was.
// A PGlite with a data folder keeps its relation files on disk (NODEFS) and is not affected.
import type { PGlite } from "@electric-sql/pglite";

interface MemNode {
  contents: Uint8Array;
  usedBytes: number;
}

interface Memfs {
  expandFileStorage(node: MemNode, size: number): void;
  resizeFileStorage(node: MemNode, size: number): void;
  linearGrowth?: true;
}

/** Spare capacity a growing file gets, as a fraction of its new size. */
const SPARE = 0.5;

function grow(node: MemNode, size: number): void {
  const capacity = node.contents.length;
  if (capacity >= size) return;
  const next = new Uint8Array(Math.max(size + Math.floor(size * SPARE), 256));
  next.set(node.contents.subarray(0, node.usedBytes));
  node.contents = next;
}

/**
 * Installs the geometric growth in this PGlite's MEMFS; returns false (and changes nothing) when
 * the PGlite's Emscripten module does not look as expected (e.g. another PGlite version).
 */
export function linearMemfsGrowth(db: PGlite): boolean {
  const fs = (db.Module as unknown as { FS?: { filesystems?: { MEMFS?: Memfs } } } | undefined)?.FS?.filesystems?.MEMFS;
  if (!fs || typeof fs.expandFileStorage !== "function" || typeof fs.resizeFileStorage !== "function") return false;
  if (fs.linearGrowth) return true;
  const resize = fs.resizeFileStorage.bind(fs);
  fs.expandFileStorage = grow;
  fs.resizeFileStorage = (node, size) => {
    if (size <= node.usedBytes) return resize(node, size);
    grow(node, size);
    node.contents.fill(0, node.usedBytes, size);
    node.usedBytes = size;
  };
  fs.linearGrowth = true;
  return true;
}
