import Link from "next/link";
import { formatDate } from "@/components/toolemu/format";
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

export function CampaignTable({ rows }: { rows: CampaignListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="campaign-table">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Campaign</th>
            <th scope="col" className="px-4 py-2">Status</th>
            <th scope="col" className="px-4 py-2 text-right">Items</th>
            <th scope="col" className="px-4 py-2 text-right normal-case" title="Annotators per trajectory"><abbr title="Annotators per trajectory" className="no-underline">k</abbr></th>
            <th scope="col" className="px-4 py-2 text-right">Annotators</th>
            <th scope="col" className="px-4 py-2">Labels submitted / needed</th>
            <th scope="col" className="px-4 py-2">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((c) => (
            <tr key={c.id} className="align-middle hover:bg-slate-50" data-testid="campaign-row" data-campaign-id={c.id}>
              <td className="max-w-sm px-4 py-3">
                <Link href={`/campaigns/${c.id}`} className="font-medium text-indigo-700 hover:underline">{c.name}</Link>
              </td>
              <td className="px-4 py-3"><CampaignStatusBadge locked={c.locked} /></td>
              <td className="px-4 py-3 text-right tabular-nums">{fmtInt(c.items)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{c.k}</td>
              <td className="px-4 py-3 text-right tabular-nums">{fmtInt(c.annotators)}</td>
              <td className="px-4 py-3"><MiniBar done={c.labels} total={c.needed} label={`Labels of ${c.name}: ${c.labels} of ${c.needed}`} testId="campaign-labels" /></td>
              <td className="whitespace-nowrap px-4 py-3 text-xs text-slate-600">
                <div className="text-slate-800">{c.createdBy}</div>
                <div className="tabular-nums text-slate-500">{formatDate(c.createdAt)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
