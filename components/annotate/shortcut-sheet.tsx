// The `?` sheet: every key of the annotate screen, the label form's own field keys included.
import { describeHotkeys, type FieldHotkeys } from "@/lib/annotation/field-hotkeys";

type Row = [keys: string, what: string];

export const ITEM_KEYS: Row[] = [
  ["c", "Show or hide the task context (underspecifications, expected achievements, risky outcomes)"],
  ["t", "Show or hide the agent's thoughts"],
  ["f", "Show or hide the agent's final message"],
  ["[ / ]", "Previous / next step"],
  ["o", "Show the focused (or current) step's observation in full, or shorten it again"],
  ["Tab", "Next part of the page, in reading order; long boxes scroll with ↑ ↓ once focused"],
];

const FORM_KEYS: Row[] = [
  ["↓ ↑", "Next / previous field (from a field); the field with focus also takes its keys without ⇧ or a prefix"],
  ["y / n / u", "In a per-step field with focus: yes / no / unsure for the next unanswered step (Backspace takes it back)"],
  ["Enter", "Submit and go to the next item"],
  ["Esc", "Leave the comment box, or cancel a prefix"],
  ["p", "Previous item (revise your earlier label)"],
  ["g", "Show the guidelines"],
  ["s", "Skip this item (asks for a reason)"],
  ["?", "Show or hide this sheet"],
];

function Rows({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <section className="mt-3">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <dl className="mt-1 space-y-1.5 text-sm">
        {rows.map(([k, d]) => (
          <div key={`${k}:${d}`} className="grid grid-cols-[7.5rem_1fr] gap-2">
            <dt><kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{k}</kbd></dt>
            <dd className="text-slate-700">{d}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ShortcutSheet({ fields, hotkeys, onClose }: { fields: { key: string; label: string }[]; hotkeys: Map<string, FieldHotkeys>; onClose: () => void }) {
  const fieldRows: Row[] = fields.flatMap((f) => {
    const h = hotkeys.get(f.key);
    return h ? [[describeHotkeys(h), f.label] as Row] : [];
  });
  return (
    <div role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4" onClick={onClose}>
      <div className="max-h-[90vh] w-full max-w-2xl overflow-auto rounded-xl bg-white p-5 shadow-xl" onClick={(e) => e.stopPropagation()}>
        <h2 className="text-lg font-semibold">Keyboard shortcuts</h2>
        <p className="mt-1 text-xs text-slate-500">Shortcuts are off while you type in a text box. A field&apos;s keys work wherever the focus is; ⇧ means hold Shift; &quot;v then 0–2&quot; means press v, then the digit.</p>
        <Rows title="The item" rows={ITEM_KEYS} />
        {fieldRows.length > 0 && <Rows title="Answers (each field's own keys)" rows={fieldRows} />}
        <Rows title="The form" rows={FORM_KEYS} />
        <button type="button" autoFocus onClick={onClose} className="mt-4 rounded-md border border-slate-300 px-3 py-1.5 text-sm">Close</button>
      </div>
    </div>
  );
}
