// The workspace's dialogs: the campaign guidelines and "skip this item" (with its reason).
import { Guidelines } from "@/components/ui/guidelines";

export function GuidelinesDialog({ campaignName, guidelines, onClose }: { campaignName: string; guidelines: string; onClose: () => void }) {
  return (
    <div role="dialog" aria-modal="true" aria-label="Guidelines" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4">
      <div className="max-h-[80vh] w-full max-w-2xl overflow-auto rounded-xl bg-white p-5 shadow-xl">
        <h2 className="text-lg font-semibold">Guidelines — {campaignName}</h2>
        <div className="mt-3 text-sm text-slate-700"><Guidelines text={guidelines} empty="This campaign has no written guidelines." /></div>
        <p className="mt-3 text-xs text-slate-500">Press ? at any time for the keyboard shortcuts.</p>
        <button type="button" autoFocus onClick={onClose} className="mt-4 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">Start labelling</button>
      </div>
    </div>
  );
}

export function SkipDialog({ onSkip, onClose }: { onSkip: (reason: string) => Promise<void>; onClose: () => void }) {
  return (
    <div role="dialog" aria-modal="true" aria-label="Skip this item" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4">
      <form
        className="w-full max-w-md rounded-xl bg-white p-5 shadow-xl"
        onSubmit={async (e) => {
          e.preventDefault();
          await onSkip(String(new FormData(e.currentTarget).get("reason") ?? ""));
        }}
      >
        <h2 className="text-lg font-semibold">Skip this item</h2>
        <label className="mt-3 block text-sm">Why? (required)
          <input name="reason" type="text" required autoFocus className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" placeholder="e.g. I cannot judge this domain" />
        </label>
        <div className="mt-4 flex gap-2">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">Skip</button>
          <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">Cancel</button>
        </div>
      </form>
    </div>
  );
}
