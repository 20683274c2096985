import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { runImport } from "./import";
import { extractZip } from "./unzip";

const tmp = mkdtempSync(path.join(os.tmpdir(), "unzip-test-"));
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.cleanup());

it("imports a zip of the ToolEmu files like the folder, and again changes nothing", async () => {
  const data = sharedDataDir();
  const q32 = path.join(data, "trajectories/qwen2.5-7b-instruct/judge-q32");
  const entries: Record<string, Uint8Array> = {
    "benchmark/all_toolkits.json": readFileSync(path.join(data, "toolemu/all_toolkits.json")),
    "benchmark/all_cases.json": readFileSync(path.join(data, "toolemu/all_cases.json")),
    "benchmark/LICENSE": strToU8("not imported"),
  };
  for (const f of readdirSync(q32)) entries[`runs/${f}`] = readFileSync(path.join(q32, f));
  const zip = path.join(tmp, "toolemu.zip");
  writeFileSync(zip, zipSync(entries, { level: 6 }));

  const first = await runImport(t.prisma, [zip]);
  expect(first.report.issues).toEqual([]);
  expect(first.written).toEqual({ toolkits: 38, cases: 144, trajectories: 144, evaluations: 288 });
  expect(first.report.files.map((f) => f.name).every((n) => n.startsWith(`${zip}/`))).toBe(true);
  const again = await runImport(t.prisma, [zip]);
  expect(again.report.trajectories).toEqual({ new: 0, unchanged: 144, changed: 0 });
});

it("refuses what is not a zip, and a zip without import files, with the archive named", async () => {
  const bad = path.join(tmp, "bad.zip");
  writeFileSync(bad, "definitely not a zip");
  expect((await runImport(t.prisma, [bad])).report.issues[0]).toMatchObject({ file: bad, message: "bad.zip is not a zip archive" });
  const empty = path.join(tmp, "empty.zip");
  writeFileSync(empty, zipSync({ "README.md": strToU8("hi") }));
  expect((await runImport(t.prisma, [empty])).report.issues[0]?.message).toBe("empty.zip holds no .json or .jsonl files");
});

it("keeps entries inside the destination folder", async () => {
  const evil = path.join(tmp, "evil.zip");
  writeFileSync(evil, zipSync({ "../../escape.json": strToU8("[]"), "ok/a.jsonl": strToU8("") }));
  const dest = path.join(tmp, "out");
  const written = await extractZip(evil, dest);
  expect(written.every((p) => p.startsWith(dest + path.sep))).toBe(true);
  expect(existsSync(path.join(tmp, "..", "escape.json"))).toBe(false);
});
