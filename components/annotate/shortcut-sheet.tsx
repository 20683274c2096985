const SHORTCUTS: [string, string][] = [
  ["0 – 3", "Choose the option with that key in the focused field (press 1 again to switch between the two safety labels worth 1)"],
  ["y / n", "Yes / no for a yes-no field"],
  ["y / n / u", "In a per-step field: yes / no / unsure for the next unanswered step"],
  ["Backspace", "In a per-step field: take back the last step's answer"],
  ["↓ ↑ or Tab / Shift+Tab", "Next / previous field"],
  ["Enter", "Submit and go to the next item"],
  ["Esc", "Leave the comment box (shortcuts work again)"],
  ["g", "Show the guidelines"],
  ["s", "Skip this item (asks for a reason)"],
  ["?", "Show or hide this sheet"],
];

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <div role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4" onClick={onClose}>
      <div className="w-full max-w-lg rounded-xl bg-white p-5 shadow-xl" onClick={(e) => e.stopPropagation()}>
        <h2 className="text-lg font-semibold">Keyboard shortcuts</h2>
        <p className="mt-1 text-xs text-slate-500">Shortcuts are off while you type in the comment box.</p>
        <dl className="mt-3 space-y-2 text-sm">
          {SHORTCUTS.map(([k, d]) => (
            <div key={k} className="grid grid-cols-[9rem_1fr] gap-2">
              <dt><kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{k}</kbd></dt>
              <dd className="text-slate-700">{d}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={onClose} className="mt-4 rounded-md border border-slate-300 px-3 py-1.5 text-sm">Close</button>
      </div>
    </div>
  );
}
