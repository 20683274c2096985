// Per-tool risk metadata as the critic uses it (issue 13 item 1): the curated values of a Tool
// row, else the default rule of ./risk-defaults.ts, with where each came from; and the two audited
// changes — a researcher curating a tool (or resetting it to the default rule) and a case adding
// critical tools of its own.
//
// Storage: a tool is curated when its riskLevel column is set. Curation always writes riskLevel
// and critical together, and then amountArg as given (null = the tool has no amount argument, so
// a missed failure costs 1). A tool never curated has all three null and follows the rule.
import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { toolSpecFromRow } from "@/lib/trajectory/tool-spec";
import { defaultToolRisk, type RiskLevel } from "./risk-defaults";

export type { RiskLevel } from "./risk-defaults";
export const RISK_LEVELS = ["none", "mild", "severe"] as const satisfies readonly RiskLevel[];

type DbLevel = "NONE" | "MILD" | "SEVERE";
const toDb = (l: RiskLevel): DbLevel => l.toUpperCase() as DbLevel;
const fromDb = (l: DbLevel): RiskLevel => l.toLowerCase() as RiskLevel;

export interface RiskValues {
  level: RiskLevel;
  critical: boolean;
  amountArg: string | null;
}

export interface EffectiveToolRisk extends RiskValues {
  toolId: string;
  toolkitId: string;
  agentName: string;
  name: string;
  source: "default" | "curated";
  /** What the default rule gives this tool, and which part of the rule decided ("verb transfer: severe, critical"). */
  defaults: RiskValues & { rule: string };
  curatedBy: { id: string; name: string; email: string } | null;
  curatedAt: Date | null;
  /** The tool's parameter names (the amount argument must be one of them). */
  parameters: { name: string; type: string }[];
}

const toolSelect = {
  id: true,
  toolkitId: true,
  position: true,
  name: true,
  agentName: true,
  summary: true,
  parameters: true,
  returns: true,
  exceptions: true,
  riskLevel: true,
  critical: true,
  amountArg: true,
  riskCuratedAt: true,
  riskCuratedBy: { select: { id: true, name: true, email: true } },
  toolkit: { select: { nameForModel: true } },
} as const satisfies Prisma.ToolSelect;

type ToolRow = Prisma.ToolGetPayload<{ select: typeof toolSelect }>;

export function effectiveRiskOfRow(row: ToolRow): EffectiveToolRisk {
  const spec = toolSpecFromRow(row.toolkit.nameForModel, row);
  const d = defaultToolRisk(spec);
  const defaults = { level: d.risk, critical: d.critical, amountArg: d.amountArgument, rule: d.reason };
  const curated = row.riskLevel !== null;
  return {
    toolId: row.id,
    toolkitId: row.toolkitId,
    agentName: spec.agentName,
    name: row.name,
    level: curated ? fromDb(row.riskLevel!) : defaults.level,
    critical: curated ? (row.critical ?? defaults.critical) : defaults.critical,
    amountArg: curated ? row.amountArg : defaults.amountArg,
    source: curated ? "curated" : "default",
    defaults,
    curatedBy: curated ? row.riskCuratedBy : null,
    curatedAt: curated ? row.riskCuratedAt : null,
    parameters: spec.parameters.map((p) => ({ name: p.name, type: p.type })),
  };
}

/** The effective risk of every tool of a toolkit, in the toolkit's order. */
export async function effectiveToolRisks(db: Db, toolkitId: string): Promise<EffectiveToolRisk[]> {
  const rows = await db.tool.findMany({ where: { toolkitId }, select: toolSelect, orderBy: { position: "asc" } });
  return rows.map(effectiveRiskOfRow);
}

/** The effective risk of the tools of several toolkits (the critic's context), in toolkit then tool order. */
export async function effectiveToolRisksOf(db: Db, toolkitIds: string[]): Promise<EffectiveToolRisk[]> {
  if (!toolkitIds.length) return [];
  const rows = await db.tool.findMany({ where: { toolkitId: { in: toolkitIds } }, select: toolSelect, orderBy: [{ toolkitId: "asc" }, { position: "asc" }] });
  return rows.map(effectiveRiskOfRow);
}

// ---------------------------------------------------------------------------------------------
// Curation

/** A change to a tool's risk: the fields given replace the effective ones; `reset` returns the tool to the default rule. */
export const toolRiskPatchSchema = z
  .strictObject(
    {
      reset: z.literal(true, { error: "reset: expected true" }).optional(),
      level: z.enum(RISK_LEVELS, { error: `level: expected one of ${RISK_LEVELS.join(", ")}` }).optional(),
      critical: z.boolean({ error: "critical: expected true or false" }).optional(),
      // "" from a form means "no amount argument".
      amountArg: z
        .string({ error: "amountArg: expected a parameter name or nothing" })
        .trim()
        .max(200, { error: "amountArg: at most 200 characters" })
        .nullable()
        .optional()
        .transform((v) => (v === "" ? null : v)),
    },
    { error: (iss) => (iss.code === "unrecognized_keys" ? `${iss.keys.join(", ")}: unknown field (expected reset, level, critical or amountArg)` : undefined) },
  )
  .refine((p) => !p.reset || (p.level === undefined && p.critical === undefined && p.amountArg === undefined), {
    error: "reset: a reset to the default rule takes no other field",
  });
export type ToolRiskPatch = z.input<typeof toolRiskPatchSchema>;

function firstIssue(e: z.ZodError): string {
  const issue = e.issues[0]!;
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return issue.message.includes(":") ? issue.message : `${where}${issue.message}`;
}

const auditView = (r: EffectiveToolRisk) => ({ level: r.level, critical: r.critical, amountArg: r.amountArg, source: r.source });

/**
 * Curate one tool's risk (or reset it to the default rule), stamped with the curator and audited
 * (action "tool.risk", before/after). The amount argument must be one of the tool's parameters.
 */
export async function curateToolRisk(db: Db, actorId: string, toolId: string, patch: unknown): Promise<EffectiveToolRisk> {
  const parsed = toolRiskPatchSchema.safeParse(patch);
  if (!parsed.success) throw new AppError(firstIssue(parsed.error), 422);
  const p = parsed.data;
  return db.$transaction(async (tx) => {
    const row = await tx.tool.findUnique({ where: { id: toolId }, select: toolSelect });
    if (!row) throw new AppError("No such tool.", 404);
    const before = effectiveRiskOfRow(row);
    let data: Prisma.ToolUpdateInput;
    if (p.reset) {
      data = { riskLevel: null, critical: null, amountArg: null, riskCuratedBy: { disconnect: true }, riskCuratedAt: null };
    } else {
      const amountArg = p.amountArg === undefined ? before.amountArg : p.amountArg;
      if (amountArg !== null && !before.parameters.some((x) => x.name === amountArg)) {
        const names = before.parameters.map((x) => x.name);
        throw new AppError(`amountArg: "${amountArg}" is not a parameter of ${before.agentName} (${names.length ? `parameters: ${names.join(", ")}` : "it takes no parameters"}).`, 422);
      }
      data = {
        riskLevel: toDb(p.level ?? before.level),
        critical: p.critical ?? before.critical,
        amountArg,
        riskCuratedBy: { connect: { id: actorId } },
        riskCuratedAt: new Date(),
      };
    }
    const updated = await tx.tool.update({ where: { id: toolId }, data, select: toolSelect });
    const after = effectiveRiskOfRow(updated);
    await recordAudit(tx, { actorId, action: p.reset ? "tool.risk_reset" : "tool.risk", entityType: "Tool", entityId: toolId, before: auditView(before), after: auditView(after) });
    return after;
  });
}

// ---------------------------------------------------------------------------------------------
// A case's own critical tools

export const caseCriticalToolsSchema = z
  .array(z.string({ error: "criticalTools: expected tool names" }).trim().min(1, { error: "criticalTools: a tool name must not be empty" }), {
    error: "criticalTools: expected a list of tool names",
  })
  .max(200, { error: "criticalTools: at most 200 tools" });

/** The agent-facing names of the tools of a case's toolkits. */
async function caseToolNames(db: Pick<Db, "tool">, toolkitIds: string[]): Promise<string[]> {
  const tools = await db.tool.findMany({ where: { toolkitId: { in: toolkitIds } }, select: { agentName: true }, orderBy: { agentName: "asc" } });
  return tools.map((t) => t.agentName);
}

/**
 * Replace the tools a case adds to the critical ones (agent names, e.g. BankManagerTransferFunds).
 * Each must be a tool of one of the case's toolkits. Duplicates are dropped, the list is sorted.
 * Audited (action "case.critical_tools", before/after).
 */
export async function setCaseCriticalTools(db: Db, actorId: string, caseId: string, names: unknown): Promise<string[]> {
  const parsed = caseCriticalToolsSchema.safeParse(names);
  if (!parsed.success) throw new AppError(firstIssue(parsed.error), 422);
  const wanted = [...new Set(parsed.data)].sort();
  return db.$transaction(async (tx) => {
    const c = await tx.testCase.findUnique({ where: { id: caseId }, select: { name: true, criticalTools: true, toolkits: { select: { toolkitId: true } } } });
    if (!c) throw new AppError("No such case.", 404);
    const known = new Set(await caseToolNames(tx, c.toolkits.map((t) => t.toolkitId)));
    const unknown = wanted.filter((n) => !known.has(n));
    if (unknown.length) {
      throw new AppError(`criticalTools: ${unknown.map((n) => `"${n}"`).join(", ")} ${unknown.length === 1 ? "is not a tool" : "are not tools"} of case ${c.name}'s toolkits.`, 422);
    }
    await tx.testCase.update({ where: { id: caseId }, data: { criticalTools: wanted } });
    await recordAudit(tx, { actorId, action: "case.critical_tools", entityType: "TestCase", entityId: caseId, before: { criticalTools: c.criticalTools }, after: { criticalTools: wanted } });
    return wanted;
  });
}

// ---------------------------------------------------------------------------------------------
// The server actions' inputs (one action per use case; the functions above validate again).

export const curateToolRiskInput = z.object({
  toolId: z.string().min(1, { error: "toolId: required" }),
  level: z.enum(RISK_LEVELS, { error: `level: expected one of ${RISK_LEVELS.join(", ")}` }),
  critical: z.boolean({ error: "critical: expected true or false" }),
  /** "" = no amount argument. */
  amountArg: z.string({ error: "amountArg: expected a parameter name or nothing" }).max(200),
});
export const resetToolRiskInput = z.object({ toolId: z.string().min(1, { error: "toolId: required" }) });
export const setCaseCriticalToolsInput = z.object({ caseId: z.string().min(1, { error: "caseId: required" }), names: z.array(z.string()).max(200) });
