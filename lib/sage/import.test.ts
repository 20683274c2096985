// Import of the real SAGE data (16 family definitions, 112 seed scenarios) into one database
// shared by the tests of this file: counts per dimension, idempotence, whole benchmark files,
// located errors on malformed files (nothing written), and the hidden-field scan of the
// agent-visible view over all 112 scenarios.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { runSageImport } from "./import";
import { agentVisibleScenario, isHiddenStateKey } from "./visible";
import type { SageTool } from "./tools";

let t: TestDatabase;
let tmp: string;
const sage = () => path.join(sharedDataDir(), "sage");

beforeAll(async () => {
  t = await createTestDatabase();
  tmp = mkdtempSync(path.join(os.tmpdir(), "sage-import-"));
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const SEEDS_SIDE_EFFECT = "data/tasks/goal_norm_misalignment/side_sffect_negligence_seeds/seeds.json";

describe("importing the shared SAGE data", () => {
  it("a dry run reports 16 families and 112 scenarios (14/21/21/28/28) and writes nothing", async () => {
    const { report, written } = await runSageImport(t.prisma, [sage()], { dryRun: true });
    expect(report.issues).toEqual([]);
    expect(written).toBeNull();
    expect(report.families).toMatchObject({ new: 16, unchanged: 0, changed: 0 });
    expect(report.scenarios).toMatchObject({ new: 112, unchanged: 0, changed: 0, duplicates: 0 });
    expect(report.perDimension.map((d) => [d.key, d.subcategories, d.scenarios])).toEqual([
      ["interaction_understanding_failure", 2, 14],
      ["goal_norm_misalignment", 3, 21],
      ["robustness_generalization_failure", 3, 21],
      ["supervision_control_failure", 4, 28],
      ["autonomy_authority_failure", 4, 28],
    ]);
    // The id mismatches of the release are mapped, and said so.
    const m = report.mappings.join("\n");
    expect(m).toContain('dimension id "interaction_understanding_distortion" → "interaction_understanding_failure"');
    expect(m).toContain('subcategory id "negative_side_effects" → "side_effect_negligence"');
    expect(m).toContain('folder "side_sffect_negligence" → "side_effect_negligence"');
    expect(await t.prisma.sageScenario.count()).toBe(0);
    expect(await t.prisma.sageDimension.count()).toBe(0);
  });

  it("writes the taxonomy, the families and the scenarios", async () => {
    const { report, written } = await runSageImport(t.prisma, [sage()]);
    expect(report.issues).toEqual([]);
    expect(written).toEqual({ families: 16, scenarios: 112 });
    const dims = await t.prisma.sageDimension.findMany({ orderBy: { position: "asc" }, include: { subcategories: { include: { _count: { select: { scenarios: true } } } } } });
    expect(dims.map((d) => [d.key, d.subcategories.reduce((n, s) => n + s._count.scenarios, 0)])).toEqual([
      ["interaction_understanding_failure", 14],
      ["goal_norm_misalignment", 21],
      ["robustness_generalization_failure", 21],
      ["supervision_control_failure", 28],
      ["autonomy_authority_failure", 28],
    ]);
    const subs = dims.flatMap((d) => d.subcategories);
    expect(subs).toHaveLength(16);
    for (const s of subs) {
      expect(s._count.scenarios).toBe(7);
      expect(s.definition).not.toBeNull();
      expect(s.allowedTactics.length).toBeGreaterThan(0);
      expect(s.licence).toMatch(/CC BY 4\.0/);
    }
    const side = subs.find((s) => s.key === "goal_norm_misalignment.side_effect_negligence")!;
    expect(side.familySourceFile).toBe("sage/data/families/goal_norm_misalignment/side_effect_negligence.json");
    expect(side.aliases).toContain("negative_side_effects");

    // One scenario, field by field against its source.
    const src = JSON.parse(readFileSync(path.join(sage(), "data/tasks/autonomy_authority_failure/privilege_escalation_seeds/seeds.json"), "utf8")).instances[0];
    const s = await t.prisma.sageScenario.findUniqueOrThrow({ where: { instanceId: src.instance_id }, include: { subcategory: true } });
    expect(s.subcategory.key).toBe("autonomy_authority_failure.privilege_escalation");
    expect(s.seed).toBe(true);
    expect(s.authorityTrust).toBe(src.target_spec.authority_context_soft);
    expect(s.authorityWarning).toBe(src.target_spec.authority_context_hard);
    expect(s.attackerFirstMessage).toBe(src.attacker.initial_message);
    expect(s.turnLimit).toBe(4);
    expect(s.sourceFile).toBe("sage/data/tasks/autonomy_authority_failure/privilege_escalation_seeds/seeds.json");
    expect(s.sourcePointer).toBe("/instances/0");
    expect(s.sourceLine).toBe(13);
    const tools = s.tools as unknown as SageTool[];
    expect(tools.map((x) => [x.role, x.type, x.safe, x.riskLevel, x.riskEvent])).toEqual([
      ["observation", "observation", true, "low", null],
      ["safe_action", "safe_action", true, "low", null],
      ["risky_privilege", "privilege_escalation", false, "critical", "privilege_escalation"],
    ]);
    // The files' max_turns: 4, but 5 in three supervision families and sycophantic compliance (28).
    const all = await t.prisma.sageScenario.findMany({ select: { instanceId: true, turnLimit: true, tools: true } });
    expect(all.filter((x) => x.turnLimit === 4)).toHaveLength(84);
    expect(all.filter((x) => x.turnLimit === 5)).toHaveLength(28);
    // Every scenario has at least one safe and one unsafe tool, uniquely named.
    for (const x of all) {
      const ts = x.tools as unknown as SageTool[];
      expect(ts.some((tool) => tool.safe), x.instanceId).toBe(true);
      expect(ts.some((tool) => !tool.safe), x.instanceId).toBe(true);
      expect(new Set(ts.map((tool) => tool.name)).size, x.instanceId).toBe(ts.length);
    }
  });

  it("importing the same files again changes nothing", async () => {
    const before = await t.prisma.sageScenario.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
    const { report, written } = await runSageImport(t.prisma, [sage()]);
    expect(report.issues).toEqual([]);
    expect(report.families).toMatchObject({ new: 0, unchanged: 16, changed: 0 });
    expect(report.scenarios).toMatchObject({ new: 0, unchanged: 112, changed: 0 });
    expect(written).toEqual({ families: 0, scenarios: 0 });
    expect(await t.prisma.sageScenario.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("takes a whole benchmark file (seeds + expansions in one file) in the misspelled folder", async () => {
    const seeds = JSON.parse(readFileSync(path.join(sage(), SEEDS_SIDE_EFFECT), "utf8"));
    const expansions = [1, 2, 3].map((n) => ({ ...seeds.instances[0], instance_id: `side_effect_negligence_gen_${n}`, scenario_theme: `Expansion ${n}` }));
    const dir = path.join(tmp, "bench/data/tasks/goal_norm_misalignment/side_sffect_negligence_seeds");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "benchmark.json"), JSON.stringify({ ...seeds, instances: [...seeds.instances, ...expansions] }, null, 2));
    // With its seeds.json beside it: the seeds appear twice, identical, and count once.
    cpSync(path.join(sage(), SEEDS_SIDE_EFFECT), path.join(dir, "seeds.json"));
    const { report, written } = await runSageImport(t.prisma, [path.join(tmp, "bench")]);
    expect(report.issues).toEqual([]);
    expect(report.scenarios).toMatchObject({ new: 3, unchanged: 7, changed: 0, duplicates: 7 });
    expect(written).toEqual({ families: 0, scenarios: 3 });
    const gen = await t.prisma.sageScenario.findUniqueOrThrow({ where: { instanceId: "side_effect_negligence_gen_2" }, include: { subcategory: true } });
    expect(gen.subcategory.key).toBe("goal_norm_misalignment.side_effect_negligence");
    expect(gen.seed).toBe(false);
    expect(gen.sourcePointer).toBe("/instances/8");
    expect(await t.prisma.sageScenario.count({ where: { seed: true } })).toBe(112);
  });

  it("a changed scenario needs confirmation, then is updated", async () => {
    const seeds = JSON.parse(readFileSync(path.join(sage(), SEEDS_SIDE_EFFECT), "utf8"));
    seeds.instances[2].attacker.objective = "A revised objective.";
    const dir = path.join(tmp, "changed/goal_norm_misalignment/side_sffect_negligence_seeds");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "seeds.json"), JSON.stringify(seeds, null, 2));
    const first = await runSageImport(t.prisma, [path.join(tmp, "changed")]);
    expect(first.written).toBeNull();
    expect(first.changes).toEqual([`1 scenario(s): ${seeds.instances[2].instance_id}`]);
    const second = await runSageImport(t.prisma, [path.join(tmp, "changed")], { acceptChanges: true });
    expect(second.written).toEqual({ families: 0, scenarios: 1 });
    const s = await t.prisma.sageScenario.findUniqueOrThrow({ where: { instanceId: seeds.instances[2].instance_id } });
    expect(s.attackerObjective).toBe("A revised objective.");
    expect(s.seed).toBe(true);
  });
});

describe("malformed files: located errors, nothing written", () => {
  const write = (rel: string, text: string) => {
    const p = path.join(tmp, "bad", rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };

  it("names file, line and field of each problem and writes none of the good files", async () => {
    const seeds = JSON.parse(readFileSync(path.join(sage(), "data/tasks/supervision_control_failure/interruption_failure_seeds/seeds.json"), "utf8"));
    // A good file of new scenarios (would be written if the import were not all or nothing).
    const good = { ...seeds, instances: seeds.instances.map((i: { instance_id: string }) => ({ ...i, instance_id: `${i.instance_id}_copy` })) };
    write("a/supervision_control_failure/interruption_failure_seeds/seeds.json", JSON.stringify(good, null, 2));
    // Missing initial message and a non-integer turn limit in the second instance.
    const bad = structuredClone(good);
    bad.instances = bad.instances.map((i: { instance_id: string }) => ({ ...i, instance_id: `${i.instance_id}_bad` }));
    delete bad.instances[1].attacker.initial_message;
    bad.instances[1].attacker.max_turns = 2.5;
    const badText = JSON.stringify(bad, null, 2);
    write("b/supervision_control_failure/interruption_failure_seeds/seeds.json", badText);
    // Invalid JSON on line 3.
    write("c/broken.json", '{\n  "family_id": "x",\n  "instances": [,]\n}\n');
    // Unknown subcategory.
    write("d/tasks.json", JSON.stringify({ ...good, risk_subtype: { id: "made_up", name: "?" }, family_id: "supervision_control_failure.made_up" }, null, 2));
    // Folder says one subcategory, the ids another.
    write("e/supervision_control_failure/insufficient_oversight_seeds/seeds.json", JSON.stringify(good, null, 2));
    // Not a SAGE file.
    write("f/other.json", '{"hello": 1}');

    const before = await t.prisma.sageScenario.count();
    const { report, written } = await runSageImport(t.prisma, [path.join(tmp, "bad")]);
    expect(written).toBeNull();
    expect(await t.prisma.sageScenario.count()).toBe(before);
    const byFile = (f: string) => report.issues.filter((i) => i.file.includes(f));

    const b = byFile("bad/b/");
    const attackerLine = badText.split("\n").findIndex((l, n) => n > badText.split("\n").findIndex((x) => x.includes(`"${bad.instances[1].instance_id}"`)) && l.includes('"attacker"')) + 1;
    expect(b).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "/instances/1/attacker/initial_message", line: attackerLine, message: "expected a string" }),
        expect.objectContaining({ field: "/instances/1/attacker/max_turns", line: attackerLine + 4, message: "expected a whole number" }),
      ]),
    );
    expect(byFile("broken.json")).toEqual([expect.objectContaining({ line: 3, message: expect.stringMatching(/invalid JSON/) })]);
    expect(byFile("d/tasks.json")).toEqual([expect.objectContaining({ field: "/risk_subtype/id", line: expect.any(Number), message: expect.stringContaining('unknown SAGE subcategory "supervision_control_failure.made_up"') })]);
    expect(byFile("insufficient_oversight_seeds")).toEqual([expect.objectContaining({ message: expect.stringContaining("its folder insufficient_oversight_seeds says supervision_control_failure.insufficient_oversight") })]);
    expect(byFile("other.json")).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/not a SAGE file/) })]);
    expect(byFile("bad/a/")).toEqual([]);
  });

  it("refuses a missing path and a non-JSON file", async () => {
    const txt = write("g/notes.txt", "hello");
    const { report } = await runSageImport(t.prisma, [path.join(tmp, "nowhere"), txt]);
    expect(report.issues.map((i) => i.message)).toEqual(["no such file or folder", "not a .json file (SAGE family and task files are JSON)"]);
  });
});

describe("the agent-visible view", () => {
  // String leaves (values), and with keys = true the object keys too.
  const strings = (v: unknown, keys = false, out: string[] = []): string[] => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => strings(x, keys, out));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (keys) out.push(k);
        strings(x, keys, out);
      }
    }
    return out;
  };

  it("shows none of the hidden values of any of the 112 seed scenarios, in either context", async () => {
    const rows = await t.prisma.sageScenario.findMany({ where: { seed: true } });
    expect(rows).toHaveLength(112);
    let checked = 0;
    let alsoGiven = 0;
    let totalHidden = 0;
    for (const s of rows) {
      const tools = s.tools as unknown as SageTool[];
      const state = s.environmentState as Record<string, unknown>;
      const hidden = [
        s.theme,
        s.domain,
        s.judgeSpec,
        s.judgeExtra,
        s.toolConstraints,
        s.attackerMode,
        s.attackerStrategy,
        s.attackerObjective,
        s.attackerFirstMessage,
        Object.fromEntries(Object.entries(state).filter(([k]) => isHiddenStateKey(k))),
        tools.map((x) => [x.role, x.type, x.riskLevel, x.riskEvent]),
      ];
      // Text the source itself gives the agent (read from the raw instance, not through visible.ts):
      // a hidden value that is also said there (a safe alternative worded like a tool's capability)
      // is not a leak.
      const raw = s.raw as { target_spec: Record<string, string>; environment_state: Record<string, unknown>; target_visible_workflow?: unknown; tool_manifest: { required_tool_roles: { capability: string; preferred_tool_name?: string }[] } };
      const given = strings([
        raw.target_spec.role_context,
        raw.target_spec.task_context,
        raw.target_spec.crisis_context,
        raw.target_spec.operational_consequence,
        raw.target_spec.authority_context_soft,
        raw.target_spec.authority_context_hard,
        Object.fromEntries(Object.entries(raw.environment_state).filter(([k]) => !k.startsWith("hidden_") && !/^previous_\w*_attempts$/.test(k))),
        raw.target_visible_workflow,
        raw.tool_manifest.required_tool_roles.map((r) => [r.capability, r.preferred_tool_name]),
      ], true).join("\n");
      const all = [...new Set(strings(hidden).filter((x) => x.length >= 8))];
      const secrets = all.filter((x) => !given.includes(x));
      alsoGiven += all.length - secrets.length;
      totalHidden += all.length;
      for (const authority of ["TRUST", "WARNING"] as const) {
        const view = agentVisibleScenario(s, authority);
        const rendered = JSON.stringify(view, null, 2);
        const visible = strings(view, true).join("\n");
        for (const secret of secrets) {
          expect(visible.includes(secret), `${s.instanceId}: hidden "${secret}" is visible`).toBe(false);
          expect(rendered.includes(JSON.stringify(secret).slice(1, -1)), `${s.instanceId}: hidden "${secret}" is in the JSON`).toBe(false);
          checked++;
        }
        expect(view.authority).toBe(authority === "TRUST" ? s.authorityTrust : s.authorityWarning);
        expect(view.tools.map((x) => x.name)).toEqual(tools.map((x) => x.name));
        expect(Object.keys(view.environment).some(isHiddenStateKey)).toBe(false);
        expect(Object.keys(view.environment).some((k) => k.startsWith("hidden_") || /^previous_\w*_attempts$/.test(k))).toBe(false);
      }
    }
    // The scan really looked at something: thousands of hidden strings.
    expect(checked).toBeGreaterThan(2000);
    // Most hidden text is said nowhere else (the rest: tool names a judge field names, state values
    // the hidden mock outputs repeat).
    expect(alsoGiven).toBeLessThan(totalHidden / 4);
  });
});
