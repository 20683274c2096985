/** Downloads of every submitted label of a campaign (unblinded), through the guarded export route. */
export function CampaignExportLinks({ campaignId, labels }: { campaignId: string; labels: number }) {
  const cls = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50";
  const href = (format: "csv" | "jsonl") => `/campaigns/${encodeURIComponent(campaignId)}/export?format=${format}`;
  return (
    <div className="flex items-center gap-2" role="group" aria-label={`Export ${labels} submitted labels`}>
      <a href={href("csv")} download className={cls} data-testid="export-labels-csv" title="One row per submitted label, with annotator, timestamps, time spent and the trajectory's metadata">Export CSV</a>
      <a href={href("jsonl")} download className={cls} data-testid="export-labels-jsonl" title="The same rows as JSON, one per line">Export JSONL</a>
    </div>
  );
}
