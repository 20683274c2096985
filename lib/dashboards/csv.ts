// The numbers behind each dashboard panel as CSV (server only). The route
// app/(app)/dashboards/csv/route.ts serves GET /dashboards/csv?panel=<name>&<dashboard filter>,
// guarded by `dashboard:read`; <CsvLink panel="<name>" filter={filter} /> links to it.
//
// To add a panel, add ONE entry to CSV_PANELS below:
//
//   agreement: {
//     title: "Agreement: evaluator vs human majority",
//     columns: AGREEMENT_CSV_COLUMNS,            // optional; header when there are no rows, and order
//     rows: (db, filter) => agreementCsv(db, filter),   // async (Db, DashboardFilter) => CsvRow[]
//   },
//
// A CsvRow is a flat object of cells (string | number | boolean | null | undefined; null and
// undefined become empty cells). Without `columns`, the header is the union of the rows' keys in
// first-seen order. Cells are written RFC 4180-style with formula-injection protection
// (lib/csv/cell.ts csvCell); numbers are written in full precision.
import "server-only";
import type { Db } from "@/lib/db/client";
import { csvLine, type CsvCellValue } from "@/lib/csv/cell";
import type { DashboardFilter } from "./filters";
import { EVALUATORS_CSV_COLUMNS, evaluatorsCsv } from "./evaluators";
import { AGENTS_CSV_COLUMNS, agentsCsv } from "./agents";
import { AGREEMENT_CSV_COLUMNS, EMULATOR_CSV_COLUMNS, FAILURES_CSV_COLUMNS, agreementCsv, emulatorCsv, failuresCsv } from "./human/csv";
import { CRITIC_CSV_COLUMNS, criticCsv } from "./critic/csv";
import { SAGE_CSV_COLUMNS, sageCsv } from "./sage/csv";

export type { CsvCellValue };
export type CsvRow = Record<string, CsvCellValue>;

export interface CsvPanel {
  /** Shown nowhere but the error for an unknown panel and the file's first comment-free name. */
  title: string;
  columns?: readonly string[];
  /** `params`: the request's raw query parameters, for panels with their own filter (critic). */
  rows: (db: Db, filter: DashboardFilter, params: Record<string, string>) => Promise<CsvRow[]>;
}

export const CSV_PANELS: Record<string, CsvPanel> = {
  evaluators: { title: "Evaluator vs evaluator agreement", columns: EVALUATORS_CSV_COLUMNS, rows: evaluatorsCsv },
  agents: { title: "Agent leaderboard", columns: AGENTS_CSV_COLUMNS, rows: agentsCsv },
  agreement: { title: "Agreement: evaluator vs human majority, human vs human", columns: AGREEMENT_CSV_COLUMNS, rows: agreementCsv },
  failures: { title: "Failures: identified, true, precision, incidence", columns: FAILURES_CSV_COLUMNS, rows: failuresCsv },
  emulator: { title: "Emulator quality", columns: EMULATOR_CSV_COLUMNS, rows: emulatorCsv },
  critic: { title: "Critic: methods × label source", columns: CRITIC_CSV_COLUMNS, rows: (db, _filter, params) => criticCsv(db, params) },
  sage: { title: "SAGE: UTR, ASR, agreement, Trust vs Warning", columns: SAGE_CSV_COLUMNS, rows: (db, _filter, params) => sageCsv(db, params) },
};

export function csvPanelNames(): string[] {
  return Object.keys(CSV_PANELS).sort();
}

/** Rows → CSV text (header first; CRLF line ends). */
export function toCsv(rows: readonly CsvRow[], columns?: readonly string[]): string {
  const header: string[] = columns ? [...columns] : [];
  const seen = new Set(header);
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        header.push(key);
      }
    }
  }
  let out = csvLine(header);
  for (const row of rows) out += csvLine(header.map((k) => row[k]));
  return out;
}

/** `toolemu-<panel>-<yyyy-mm-dd>.csv` */
export function csvFileName(panel: string, now = new Date()): string {
  return `toolemu-${panel.replace(/[^a-z0-9-]/gi, "_")}-${now.toISOString().slice(0, 10)}.csv`;
}
