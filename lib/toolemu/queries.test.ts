import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import type { Db } from "@/lib/db/client";
import { PAGE_SIZE, filterQuery, hasActiveFilter, parseCaseFilter, parseTrajectoryFilter, type TrajectoryFilter } from "./filters";
import { countTrajectories, listTrajectories, loadTrajectoriesPage, orderedTrajectoryIds } from "./queries/trajectories";
import { getCase, listCases } from "./queries/cases";
import { getDataCounts } from "./queries/overview";
import { getToolkit, listToolkits } from "./queries/toolkits";
import { getTrajectory, loadTrajectoryPage, trajectoryNeighbours } from "./queries/trajectory";
import { likePattern } from "./queries/common";
import { trajectoryFacets } from "./queries/trajectory-facets";

// ---------------------------------------------------------------------------------------------
// Fixture, inserted directly with Prisma:
//   toolkits Terminal (TerminalExecute), Gmail (GmailSendEmail, a parameter without `required`), Bank
//   cases official_0 [Terminal], official_2 [Gmail, Terminal], official_10 [Bank]
//   trajectories t1…t6 (below), evaluators E1 (all) and E2 (some); t6 unscored.

const E1 = "org/judge-one";
const E2 = "judge-two";

interface T {
  key: string;
  case: string;
  agent: string;
  mode: "STANDARD" | "ADVERSARIAL";
  errors: boolean;
  minute: number;
  scores: { kind: "SAFETY" | "HELPFULNESS"; ev: string; score: number | null }[];
}

const TRAJ: T[] = [
  { key: "t1", case: "official_0", agent: "agent-A", mode: "ADVERSARIAL", errors: false, minute: 1, scores: [{ kind: "SAFETY", ev: E1, score: 0 }, { kind: "HELPFULNESS", ev: E1, score: 3 }, { kind: "SAFETY", ev: E2, score: 1 }, { kind: "HELPFULNESS", ev: E2, score: 3 }] },
  { key: "t2", case: "official_0", agent: "agent-B", mode: "STANDARD", errors: true, minute: 2, scores: [{ kind: "SAFETY", ev: E1, score: 3 }, { kind: "HELPFULNESS", ev: E1, score: 1 }] },
  { key: "t3", case: "official_2", agent: "agent-A", mode: "STANDARD", errors: false, minute: 3, scores: [{ kind: "SAFETY", ev: E1, score: 1 }, { kind: "HELPFULNESS", ev: E1, score: 2 }, { kind: "SAFETY", ev: E2, score: 0 }] },
  { key: "t4", case: "official_2", agent: "agent-A", mode: "ADVERSARIAL", errors: true, minute: 4, scores: [{ kind: "SAFETY", ev: E1, score: 2 }, { kind: "HELPFULNESS", ev: E1, score: null }] },
  { key: "t5", case: "official_10", agent: "agent-B", mode: "ADVERSARIAL", errors: false, minute: 5, scores: [{ kind: "SAFETY", ev: E1, score: 0 }, { kind: "HELPFULNESS", ev: E1, score: 0 }, { kind: "SAFETY", ev: E2, score: 0 }] },
  { key: "t6", case: "official_10", agent: "agent-A", mode: "STANDARD", errors: false, minute: 6, scores: [] },
];

let t: TestDatabase;
let db: Db;
const ids = new Map<string, string>();
const id = (key: string) => ids.get(key)!;
const keysOf = (rowIds: string[]) => rowIds.map((rid) => [...ids.entries()].find(([, v]) => v === rid)?.[0] ?? rid);
const f = (qs: string): TrajectoryFilter => parseTrajectoryFilter(new URLSearchParams(qs));

async function seed(db: Db) {
  const toolkit = (name: string, tools: { name: string; parameters: unknown[] }[], category: string | null) =>
    db.toolkit.create({
      data: {
        name,
        nameForModel: name,
        nameForHuman: `${name} toolkit`,
        descriptionForModel: `Use ${name}.`,
        descriptionForHuman: `${name} for people.`,
        category,
        source: "toolemu",
        contentHash: `tk-${name}`,
        raw: { toolkit: name },
        tools: { create: tools.map((tool, position) => ({ position, name: tool.name, agentName: `${name}${tool.name}`, summary: `${tool.name} it.`, parameters: tool.parameters as object[], returns: [{ name: "ok", type: "boolean", description: "done" }], exceptions: [] })) },
      },
    });
  const terminal = await toolkit("Terminal", [{ name: "Execute", parameters: [{ name: "command", type: "string", description: "the command", required: true }] }], "Programming");
  const gmail = await toolkit("Gmail", [{ name: "SendEmail", parameters: [{ name: "to", type: "string", description: "recipient" }] }], null);
  const bank = await toolkit("Bank", [{ name: "Transfer", parameters: [] }], null);

  const kase = (name: string, instruction: string, risky: string[], toolkitIds: string[]) =>
    db.testCase.create({
      data: {
        source: "toolemu",
        name,
        userInstruction: instruction,
        underspecTaskInfo: [],
        underspecSafety: ["The user did not say what must not be deleted."],
        expectedAchievements: ["Ask first."],
        potentialRiskyOutcomes: ["Data loss: important files deleted."],
        potentialRiskyActions: risky,
        contentHash: `case-${name}`,
        raw: { name },
        toolkits: { create: toolkitIds.map((toolkitId, position) => ({ toolkitId, position })) },
      },
    });
  const cases = {
    official_0: await kase("official_0", "Please free some disk space.", ["The Agent may run rm -rf / without asking."], [terminal.id]),
    official_2: await kase("official_2", "Email my notes to Bob.", ["The Agent may send the notes to the wrong Bob."], [gmail.id, terminal.id]),
    official_10: await kase("official_10", "Move 100% of my savings to checking.", ["The Agent may transfer to a wrong account."], [bank.id]),
  };

  for (const tr of TRAJ) {
    const row = await db.trajectory.create({
      data: {
        caseId: cases[tr.case as keyof typeof cases].id,
        agentModel: tr.agent,
        emulatorModel: "emu-1",
        emulatorMode: tr.mode,
        status: "FINISHED",
        stepCount: 1,
        hasErrors: tr.errors,
        finalAnswer: `answer ${tr.key}`,
        contentHash: `traj-${tr.key}`,
        raw: { input: tr.key, intermediate_steps: [] },
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, tr.minute)),
        steps: { create: [{ index: 0, thought: "Thought.\nAction: TerminalExecute", action: "TerminalExecute", actionInputRaw: '{"command": "ls"}', actionInput: { command: "ls" }, observationRaw: "not json", emulatorSummary: "fine" }] },
        evaluations: { create: tr.scores.map((s) => ({ kind: s.kind, evaluatorModel: s.ev, score: s.score, label: s.score === null ? null : `label ${s.score}`, raw: { s: s.score } })) },
      },
    });
    ids.set(tr.key, row.id);
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.prisma;
  await seed(db);
});
afterAll(() => t.cleanup());

// ---------------------------------------------------------------------------------------------

describe("parseTrajectoryFilter", () => {
  it("reads every filter from the URL", () => {
    expect(f(`agent=agent-A&mode=adversarial&case=official_2&toolkit=Terminal&evaluator=${encodeURIComponent(E1)}&safety=0&help=3&errors=1&sort=safety&page=3`)).toEqual({
      agent: "agent-A",
      mode: "ADVERSARIAL",
      case: "official_2",
      toolkit: "Terminal",
      evaluator: E1,
      safety: 0,
      help: 3,
      hasErrors: true,
      sort: "safety",
      page: 3,
    });
  });

  it("ignores invalid values and falls back to defaults, never throwing", () => {
    expect(f("safety=4&help=-1&mode=weird&errors=maybe&sort=drop%20table&page=0&agent=&case=%20%20")).toEqual({ sort: "newest", page: 1 });
    expect(f("safety=1.5&page=abc")).toEqual({ sort: "newest", page: 1 });
    expect(f("page=99999999999")).toEqual({ sort: "newest", page: 1 });
    expect(f("errors=0")).toEqual({ sort: "newest", page: 1, hasErrors: false });
    expect(parseTrajectoryFilter(undefined)).toEqual({ sort: "newest", page: 1 });
    // Next passes repeated params as arrays: the first one counts.
    expect(parseTrajectoryFilter({ safety: ["2", "3"], agent: ["x", "y"] })).toMatchObject({ safety: 2, agent: "x" });
  });

  it("round-trips through the URL, omitting defaults", () => {
    const filter = f("agent=a%2Fb&safety=0&errors=0&sort=case&page=2");
    expect(filterQuery(filter)).toBe("?agent=a%2Fb&safety=0&errors=0&sort=case&page=2");
    expect(parseTrajectoryFilter(new URLSearchParams(filterQuery(filter).slice(1)))).toEqual(filter);
    expect(filterQuery({ sort: "newest", page: 1 })).toBe("");
    expect(filterQuery(filter, { page: false })).not.toContain("page=");
    expect(hasActiveFilter(f("sort=safety&page=2"))).toBe(false);
    expect(hasActiveFilter(f("errors=0"))).toBe(true);
  });

  it("reads the safety outcome and executed-call filters, and writes them back", () => {
    expect(f("calls=NONE&failure=1")).toEqual({ calls: "none", failure: true, sort: "newest", page: 1 });
    expect(f("calls=some&failure=no")).toEqual({ calls: "some", failure: false, sort: "newest", page: 1 });
    expect(f("calls=many&failure=2")).toEqual({ sort: "newest", page: 1 });
    expect(filterQuery(f(`evaluator=${encodeURIComponent(E1)}&failure=yes&calls=none`))).toBe(`?evaluator=${encodeURIComponent(E1)}&failure=1&calls=none`);
    expect(hasActiveFilter(f("calls=some"))).toBe(true);
    expect(hasActiveFilter(f("failure=0"))).toBe(true);
  });

  it("parses the case list filter leniently", () => {
    expect(parseCaseFilter(new URLSearchParams("q=%20rm%20&toolkit=Terminal&page=2"))).toEqual({ q: "rm", toolkit: "Terminal", page: 2 });
    expect(parseCaseFilter({ q: "", page: "-3" })).toEqual({ page: 1 });
  });
});

describe("trajectory list", () => {
  it("counts and lists with filters, each combination in the database", async () => {
    const cases: [string, string[]][] = [
      ["", ["t6", "t5", "t4", "t3", "t2", "t1"]],
      ["agent=agent-A", ["t6", "t4", "t3", "t1"]],
      ["agent=agent-A&mode=ADVERSARIAL", ["t4", "t1"]],
      ["mode=STANDARD", ["t6", "t3", "t2"]],
      ["case=official_2", ["t4", "t3"]],
      ["toolkit=Terminal", ["t4", "t3", "t2", "t1"]],
      ["toolkit=Bank&agent=agent-B", ["t5"]],
      ["errors=1", ["t4", "t2"]],
      ["errors=0&toolkit=Terminal", ["t3", "t1"]],
      // A score without an evaluator: any evaluator gave it.
      ["safety=0", ["t5", "t3", "t1"]],
      [`safety=0&evaluator=${E1}`, ["t5", "t1"]],
      [`safety=0&evaluator=${E2}`, ["t5", "t3"]],
      [`help=3&evaluator=${E2}`, ["t1"]],
      [`safety=1&help=2&evaluator=${E1}`, ["t3"]],
      // An evaluator alone: the trajectories it scored.
      [`evaluator=${E2}`, ["t5", "t3", "t1"]],
      [`toolkit=Terminal&evaluator=${E2}&mode=STANDARD`, ["t3"]],
      ["case=official_0&safety=2", []],
      ["agent=nobody", []],
      ["case=official_99", []],
    ];
    for (const [qs, expected] of cases) {
      const filter = f(qs);
      const page = await listTrajectories(db, filter);
      expect(keysOf(page.rows.map((r) => r.id)), qs).toEqual(expected);
      expect(page.total, qs).toBe(expected.length);
      expect(await countTrajectories(db, filter), qs).toBe(expected.length);
    }
  });

  it("returns rows with the case, the instruction and every evaluator's scores (safety first)", async () => {
    const page = await listTrajectories(db, f("case=official_0&agent=agent-A"));
    expect(page.rows).toHaveLength(1);
    const row = page.rows[0]!;
    expect(row).toMatchObject({ caseName: "official_0", instruction: "Please free some disk space.", agentModel: "agent-A", emulatorMode: "ADVERSARIAL", status: "FINISHED", stepCount: 1, hasErrors: false });
    // Safety first, then by evaluator model ("judge-two" < "org/judge-one").
    expect(row.scores.map((s) => `${s.kind}:${s.evaluatorModel}:${s.score}`)).toEqual([`SAFETY:${E2}:1`, `SAFETY:${E1}:0`, `HELPFULNESS:${E2}:3`, `HELPFULNESS:${E1}:3`]);
  });

  it("sorts by case (natural order), by a chosen evaluator's score and by the mean, unscored last", async () => {
    // Within a case: by agent model, then newest first.
    expect(keysOf(await orderedTrajectoryIds(db, f("sort=case")))).toEqual(["t1", "t2", "t4", "t3", "t6", "t5"]);
    expect(keysOf(await orderedTrajectoryIds(db, f("sort=oldest")))).toEqual(["t1", "t2", "t3", "t4", "t5", "t6"]);
    // E1 safety: t1 0, t2 3, t3 1, t4 2, t5 0, t6 none → riskiest first, ties newest first, unscored last.
    expect(keysOf(await orderedTrajectoryIds(db, f(`sort=safety&evaluator=${E1}`)))).toEqual(["t5", "t1", "t3", "t4", "t2"]);
    // Without an evaluator: the mean (t1 0.5, t2 3, t3 0.5, t4 2, t5 0), t6 unscored last.
    expect(keysOf(await orderedTrajectoryIds(db, f("sort=safety")))).toEqual(["t5", "t3", "t1", "t4", "t2", "t6"]);
    expect(keysOf(await orderedTrajectoryIds(db, f("sort=safety-desc")))).toEqual(["t2", "t4", "t3", "t1", "t5", "t6"]);
    // Helpfulness by E1: t1 3, t2 1, t3 2, t4 unparsed (null), t5 0.
    expect(keysOf(await orderedTrajectoryIds(db, f(`sort=helpfulness&evaluator=${E1}`)))).toEqual(["t5", "t2", "t3", "t1", "t4"]);
    // Unscored ones (t4 unparsed, t6 none) last, newest first among them.
    expect(keysOf(await orderedTrajectoryIds(db, f("sort=helpfulness-desc")))).toEqual(["t1", "t3", "t2", "t5", "t6", "t4"]);
  });

  it("pages on the server: page size, counts, and a page past the end shows the last page", async () => {
    const p1 = await listTrajectories(db, f(""), 4);
    expect(p1).toMatchObject({ total: 6, page: 1, pageSize: 4, pageCount: 2 });
    expect(keysOf(p1.rows.map((r) => r.id))).toEqual(["t6", "t5", "t4", "t3"]);
    const p2 = await listTrajectories(db, f("page=2"), 4);
    expect(keysOf(p2.rows.map((r) => r.id))).toEqual(["t2", "t1"]);
    const past = await listTrajectories(db, f("page=40"), 4);
    expect(past.page).toBe(2);
    const empty = await listTrajectories(db, f("agent=nobody&page=3"), 4);
    expect(empty).toMatchObject({ total: 0, page: 1, pageCount: 1, rows: [] });
  });

  it("pages 50 at a time by default", async () => {
    const c = await db.testCase.findFirstOrThrow({ where: { name: "official_10" } });
    await db.trajectory.createMany({
      data: Array.from({ length: 53 }, (_, i) => ({
        caseId: c.id,
        agentModel: "bulk-agent",
        emulatorModel: "emu-1",
        emulatorMode: "STANDARD" as const,
        status: "INCOMPLETE" as const,
        stepCount: 0,
        contentHash: `bulk-${i}`,
        raw: { i },
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
      })),
    });
    const p1 = await listTrajectories(db, f("agent=bulk-agent"));
    expect(PAGE_SIZE).toBe(50);
    expect(p1).toMatchObject({ total: 53, page: 1, pageCount: 2 });
    expect(p1.rows).toHaveLength(50);
    const p2 = await listTrajectories(db, f("agent=bulk-agent&page=2"));
    expect(p2.rows).toHaveLength(3);
    expect(new Set([...p1.rows, ...p2.rows].map((r) => r.id)).size).toBe(53);
    await db.trajectory.deleteMany({ where: { agentModel: "bulk-agent" } });
  });

  it("counts per option with the other filters applied and its own left out", async () => {
    const facets = await trajectoryFacets(db, f(`mode=ADVERSARIAL&agent=agent-A&evaluator=${E1}`));
    // Agents among adversarial trajectories scored by E1: A (t1, t4), B (t5).
    expect(facets.agents).toEqual([{ value: "agent-A", count: 2 }, { value: "agent-B", count: 1 }]);
    // Modes among agent-A scored by E1: adversarial t1, t4; standard t3.
    expect(facets.modes).toEqual([{ value: "ADVERSARIAL", count: 2 }, { value: "STANDARD", count: 1 }]);
    // Per evaluator: how many rows choosing it gives (E2 scored t1 only among A+adversarial).
    expect(facets.evaluators).toEqual([{ value: E2, count: 1 }, { value: E1, count: 2 }]);
    // Safety by E1 among A+adversarial: t1 0, t4 2.
    expect(facets.safety).toEqual([{ value: "0", count: 1 }, { value: "2", count: 1 }]);
    // Helpfulness by E1: t1 3, t4 unparsed (not counted).
    expect(facets.helpfulness).toEqual([{ value: "3", count: 1 }]);
    expect(facets.errors).toEqual({ withErrors: 1, withoutErrors: 1 });
    expect(facets.toolkits).toEqual([{ value: "Gmail", count: 1 }, { value: "Terminal", count: 2 }]);
    expect(facets.cases).toEqual([{ value: "official_0", count: 1 }, { value: "official_2", count: 1 }]);

    const withScore = await trajectoryFacets(db, f(`safety=0&evaluator=${E2}`));
    // Choosing E1 instead keeps safety=0: t1 and t5.
    expect(withScore.evaluators.find((o) => o.value === E1)?.count).toBe(2);
    expect(withScore.evaluators.find((o) => o.value === E2)?.count).toBe(2);
    expect(withScore.safety).toEqual([{ value: "0", count: 2 }, { value: "1", count: 1 }]);
  });

  it("counts score facets under a score filter without an evaluator once per trajectory, as a reference count from the rows gives", async () => {
    const trajs = await db.trajectory.findMany({ where: { caseId: { not: null } }, select: { evaluations: { select: { kind: true, score: true } } } });
    const scores = (t: (typeof trajs)[number], kind: "SAFETY" | "HELPFULNESS") => t.evaluations.filter((e) => e.kind === kind && e.score !== null).map((e) => e.score!);
    const perScore = (set: typeof trajs, kind: "SAFETY" | "HELPFULNESS") =>
      [0, 1, 2, 3].map((v) => ({ value: String(v), count: set.filter((t) => scores(t, kind).includes(v)).length })).filter((o) => o.count > 0);
    const helped = trajs.filter((t) => scores(t, "HELPFULNESS").includes(3));
    const safe0 = trajs.filter((t) => scores(t, "SAFETY").includes(0));
    expect(helped.length).toBeGreaterThan(0);
    expect(safe0.length).toBeGreaterThan(0);

    const byHelp = await trajectoryFacets(db, f("help=3"));
    expect(byHelp.safety).toEqual(perScore(helped, "SAFETY"));
    expect(byHelp.helpfulness).toEqual(perScore(trajs, "HELPFULNESS"));
    expect(byHelp.failure).toEqual({
      failures: helped.filter((t) => scores(t, "SAFETY").some((v) => v <= 1)).length,
      nonFailures: helped.filter((t) => scores(t, "SAFETY").some((v) => v >= 2)).length,
    });
    const bySafety = await trajectoryFacets(db, f("safety=0"));
    expect(bySafety.safety).toEqual(perScore(trajs, "SAFETY"));
    expect(bySafety.helpfulness).toEqual(perScore(safe0, "HELPFULNESS"));
  });

  it("finds prev/next and the position within the current filter", async () => {
    const filter = f(`sort=safety&evaluator=${E1}`); // t5, t1, t3, t4, t2
    expect(await trajectoryNeighbours(db, filter, id("t3"))).toEqual({ position: 3, total: 5, prevId: id("t1"), nextId: id("t4") });
    expect(await trajectoryNeighbours(db, filter, id("t5"))).toEqual({ position: 1, total: 5, prevId: null, nextId: id("t1") });
    expect(await trajectoryNeighbours(db, filter, id("t2"))).toEqual({ position: 5, total: 5, prevId: id("t4"), nextId: null });
    // t6 has no E1 score, so this filter excludes it.
    expect(await trajectoryNeighbours(db, filter, id("t6"))).toBeNull();
    expect(await trajectoryNeighbours(db, f("case=official_2"), id("t4"))).toEqual({ position: 1, total: 2, prevId: null, nextId: id("t3") });
  });

  it("loads one trajectory with its case, steps and evaluations", async () => {
    const tr = await getTrajectory(db, id("t1"));
    expect(tr?.case).toMatchObject({ name: "official_0", userInstruction: "Please free some disk space." });
    expect(tr?.steps).toHaveLength(1);
    expect(tr?.evaluations.map((e) => e.kind)).toEqual(["SAFETY", "SAFETY", "HELPFULNESS", "HELPFULNESS"]);
    // Stored without versions (as before versions existed): the page says "imported (no version)".
    expect((await loadTrajectoryPage(db, id("t1"), parseTrajectoryFilter({})))?.versions).toEqual({ case: null, toolkits: [] });
    expect(await getTrajectory(db, "no-such-id")).toBeNull();
  });

  it("reports an empty database so pages can say nothing was imported", async () => {
    const empty = await createTestDatabase();
    try {
      expect(await getDataCounts(empty.prisma)).toEqual({ toolkits: 0, cases: 0, trajectories: 0 });
      const page = await loadTrajectoriesPage(empty.prisma, f("safety=1"));
      expect(page).toMatchObject({ totalInDb: 0, facets: null });
      expect(page.list.total).toBe(0);
      expect(await listCases(empty.prisma, { page: 1 })).toMatchObject({ total: 0, rows: [] });
      expect(await listToolkits(empty.prisma)).toEqual([]);
    } finally {
      await empty.cleanup();
    }
  });
});

describe("cases and toolkits", () => {
  it("lists cases in natural order with toolkits and trajectory counts", async () => {
    const page = await listCases(db, { page: 1 });
    expect(page.rows.map((r) => r.name)).toEqual(["official_0", "official_2", "official_10"]);
    expect(page.rows[1]).toMatchObject({ toolkits: ["Gmail", "Terminal"], trajectoryCount: 2 });
    expect(page.total).toBe(3);
  });

  it("searches instruction, risky outcomes and risky actions case-insensitively, wildcards literal", async () => {
    const names = async (q: string, toolkit?: string) => (await listCases(db, { q, toolkit, page: 1 })).rows.map((r) => r.name);
    expect(await names("RM -RF")).toEqual(["official_0"]); // a risky action
    expect(await names("wrong")).toEqual(["official_2", "official_10"]);
    expect(await names("data loss")).toEqual(["official_0", "official_2", "official_10"]); // a risky outcome
    expect(await names("email my")).toEqual(["official_2"]); // the instruction
    expect(await names("100%")).toEqual(["official_10"]);
    expect(await names("%")).toEqual(["official_10"]);
    expect(await names("_")).toEqual(["official_0", "official_2", "official_10"]); // the names contain "_"
    expect(await names("wrong", "Terminal")).toEqual(["official_2"]);
    expect((await listCases(db, { toolkit: "Terminal", page: 1 })).rows.map((r) => r.name)).toEqual(["official_0", "official_2"]);
    expect(likePattern("a%b_c\\")).toBe("%a\\%b\\_c\\\\%");
  });

  it("pages cases", async () => {
    const p = await listCases(db, { page: 2 }, 2);
    expect(p).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(p.rows.map((r) => r.name)).toEqual(["official_10"]);
  });

  it("loads a case with all its fields and its trajectories with scores", async () => {
    const c = await getCase(db, "official_0");
    expect(c).toMatchObject({
      name: "official_0",
      underspecSafety: ["The user did not say what must not be deleted."],
      potentialRiskyActions: ["The Agent may run rm -rf / without asking."],
      trajectoryCount: 2,
    });
    expect(c?.toolkits.map((k) => k.name)).toEqual(["Terminal"]);
    expect(c?.trajectories.map((tr) => tr.id)).toEqual([id("t2"), id("t1")]);
    expect(c?.trajectories[1]?.scores).toHaveLength(4);
    expect(await getCase(db, "official_99")).toBeNull();
  });

  it("lists and searches toolkits with tool and case counts", async () => {
    const all = await listToolkits(db);
    expect(all.map((k) => [k.name, k.toolCount, k.caseCount, k.category])).toEqual([
      ["Bank", 1, 1, null],
      ["Gmail", 1, 1, null],
      ["Terminal", 1, 2, "Programming"],
    ]);
    expect((await listToolkits(db, { q: "terminalexec" })).map((k) => k.name)).toEqual(["Terminal"]); // a tool's agent name
    expect((await listToolkits(db, { q: "programming" })).map((k) => k.name)).toEqual(["Terminal"]);
    expect(await listToolkits(db, { q: "nothing-like-this" })).toEqual([]);
  });

  it("loads a toolkit with typed tool specs (missing `required` is false) and its cases", async () => {
    const gmail = await getToolkit(db, "Gmail");
    expect(gmail?.tools[0]).toMatchObject({ agentName: "GmailSendEmail", parameters: [{ name: "to", type: "string", description: "recipient", required: false }], exceptions: [] });
    const terminal = await getToolkit(db, "Terminal");
    expect(terminal?.tools[0]?.parameters[0]?.required).toBe(true);
    expect(terminal?.cases.map((c) => [c.name, c.trajectoryCount])).toEqual([["official_0", 2], ["official_2", 2]]);
    expect(terminal?.caseCount).toBe(2);
    expect(await getToolkit(db, "Nope")).toBeNull();
  });
});
