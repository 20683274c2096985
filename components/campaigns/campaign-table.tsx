import Link from "next/link";
import { formatDate } from "@/components/toolemu/format";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CampaignStatusBadge } from "./status-badge";
import { MiniBar } from "./mini-bar";
import { fmtInt } from "@/components/ui/format";

export interface CampaignListRow {
  id: string;
  name: string;
  locked: boolean;
  k: number;
  items: number;
  annotators: number;
  labels: number;
  needed: number;
  createdBy: string;
  createdAt: Date | string;
}

const COLUMNS: Column<CampaignListRow>[] = [
  { key: "campaign", header: "Campaign", className: "max-w-sm", cell: (c) => <Link href={`/campaigns/${c.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{c.name}</Link> },
  { key: "status", header: "Status", cell: (c) => <CampaignStatusBadge locked={c.locked} /> },
  { key: "items", header: "Items", align: "right", cell: (c) => fmtInt(c.items) },
  { key: "k", header: <abbr title="Annotators per trajectory" className="no-underline">k</abbr>, headerTitle: "Annotators per trajectory", headerClassName: "normal-case", align: "right", cell: (c) => c.k },
  { key: "annotators", header: "Annotators", align: "right", cell: (c) => fmtInt(c.annotators) },
  { key: "labels", header: "Labels submitted / needed", cell: (c) => <MiniBar done={c.labels} total={c.needed} label={`Labels of ${c.name}: ${c.labels} of ${c.needed}`} testId="campaign-labels" /> },
  {
    key: "created", header: "Created", className: "whitespace-nowrap text-xs text-slate-600",
    cell: (c) => (
      <>
        <div className="text-slate-800">{c.createdBy}</div>
        <div className="tabular-nums text-slate-500">{formatDate(c.createdAt)}</div>
      </>
    ),
  },
];

export function CampaignTable({ rows }: { rows: CampaignListRow[] }) {
  return <DataTable testId="campaign-table" rows={rows} columns={COLUMNS} rowKey={(c) => c.id} pad="px-4 py-3" rowClassName="align-middle hover:bg-slate-50" rowProps={(c) => ({ "data-testid": "campaign-row", "data-campaign-id": c.id })} />;
}
