"use client";
// The toolkit / test case editor: a form view and a JSON view of the same value, checked as you
// type with the importer's own schemas (the server checks again, with the database: tool names
// taken by other toolkits, unknown toolkits), each problem shown on its field or JSON line. Save
// with a note (Ctrl+Enter); an edit made on an old version is refused, never merged silently.
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition, type KeyboardEvent } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { SaveResult } from "@/lib/toolemu/authoring/inputs";
import { jsonValueLines, lineOfPath } from "@/lib/toolemu/authoring/json-lines";
import { inToolemuOrder } from "@/lib/toolemu/authoring/key-order";
import { validateCase, validateToolkitSpec, type SpecIssue } from "@/lib/toolemu/authoring/validate";
import { shortSyntaxError, syntaxErrorLine } from "@/lib/toolemu/locate";
import { Field, FormError, TextInput, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { CaseForm } from "./case-form";
import { fieldId, pathText, type PathKey } from "./spec-path";
import { ToolkitForm } from "./toolkit-form";

export interface SaveInput {
  spec: unknown;
  note?: string;
  id?: string;
  expectedVersion?: number;
}

interface Props {
  kind: "toolkit" | "case";
  initial: unknown;
  /** Editing: the record and the version the edit starts from. */
  id?: string;
  expectedVersion?: number;
  toolkitNames?: string[];
  /** The create action ({ spec, note }) or the update action ({ id, spec, expectedVersion, note }). */
  save: (input: never) => Promise<ActionResult<SaveResult>>;
  /** "/toolkits" or "/cases": the saved record's page is basePath/<name>. */
  basePath: string;
  cancelHref: string;
}

type Tab = "form" | "json";

export function SpecEditor({ kind, initial, id, expectedVersion, toolkitNames = [], save, basePath, cancelHref }: Props) {
  const router = useRouter();
  const [value, setValue] = useState<unknown>(() => inToolemuOrder(kind, initial));
  const [text, setText] = useState(() => JSON.stringify(inToolemuOrder(kind, initial), null, 2));
  const [tab, setTab] = useState<Tab>("form");
  const [syntax, setSyntax] = useState<{ message: string; line: number | null } | null>(null);
  const [serverIssues, setServerIssues] = useState<SpecIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [pending, startTransition] = useTransition();
  const jsonRef = useRef<HTMLTextAreaElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  const checked = useMemo(() => (kind === "toolkit" ? validateToolkitSpec(value) : validateCase(value)), [kind, value]);
  const issues = useMemo(() => {
    const own = checked.ok ? [] : checked.issues;
    const seen = new Set(own.map((i) => `${i.path}\u0000${i.message}`));
    return [...own, ...serverIssues.filter((i) => !seen.has(`${i.path}\u0000${i.message}`))];
  }, [checked, serverIssues]);
  const lines = useMemo(() => (tab === "json" && !syntax ? jsonValueLines(text) : new Map<string, number>()), [tab, syntax, text]);

  const errorsAt = (path: PathKey[], within = false) => {
    const p = pathText(path);
    return issues.filter((i) => i.path === p || (within && (i.path.startsWith(`${p}[`) || i.path.startsWith(`${p}.`)))).map((i) => i.message);
  };

  function fromForm(v: unknown) {
    setValue(v);
    setText(JSON.stringify(v, null, 2));
    setServerIssues([]);
  }

  function fromJson(t: string) {
    setText(t);
    setServerIssues([]);
    try {
      setValue(JSON.parse(t));
      setSyntax(null);
    } catch (e) {
      setSyntax({ message: shortSyntaxError(e), line: syntaxErrorLine(t, e) });
    }
  }

  function goToLine(line: number) {
    const ta = jsonRef.current;
    if (!ta) return;
    let offset = 0;
    for (let l = 1; l < line; l++) offset = text.indexOf("\n", offset) + 1;
    const end = text.indexOf("\n", offset);
    ta.focus();
    ta.setSelectionRange(offset, end === -1 ? text.length : end);
    // Roughly scroll the line into view (the textarea has no per-line API).
    ta.scrollTop = Math.max(0, (line - 5) * 20);
  }

  function showIssue(i: SpecIssue) {
    if (tab === "json") {
      const line = lineOfPath(lines, i.path);
      if (line) goToLine(line);
      return;
    }
    // The nearest field that exists in the form.
    let p = i.path;
    for (;;) {
      const el = document.getElementById(fieldId(pathOf(p)));
      if (el) return el.focus();
      const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
      if (cut <= 0) return;
      p = p.slice(0, cut);
    }
  }

  function submit() {
    setError(null);
    if (syntax) {
      setError(`The JSON does not parse${syntax.line ? ` (line ${syntax.line})` : ""}: fix it before saving.`);
      return;
    }
    startTransition(async () => {
      const res = await (save as (i: SaveInput) => Promise<ActionResult<SaveResult>>)({ spec: value, note: note.trim() || undefined, ...(id ? { id, expectedVersion } : {}) });
      if (!res.ok) {
        setError(res.error);
        setTimeout(() => errorRef.current?.focus(), 0);
      } else if (!res.data.saved) {
        setServerIssues(res.data.issues);
        setError(`Not saved: ${res.data.issues.length} problem${res.data.issues.length === 1 ? "" : "s"} (listed above the editor).`);
      } else {
        router.push(`${basePath}/${encodeURIComponent(res.data.name)}?saved=${res.data.version}#history`);
      }
    });
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  };

  const tabBtn = (t: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`tab-${t}`}
      aria-selected={tab === t}
      // Only the selected tab's panel is rendered: pointing at the other one would name a missing id.
      aria-controls={tab === t ? `panel-${t}` : undefined}
      tabIndex={tab === t ? 0 : -1}
      disabled={t === "form" && !!syntax}
      title={t === "form" && syntax ? "Fix the JSON first" : undefined}
      onClick={() => setTab(t)}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
          const next = tab === "form" ? "json" : "form";
          if (next === "form" && syntax) return;
          setTab(next);
          setTimeout(() => document.getElementById(`tab-${next}`)?.focus(), 0);
        }
      }}
      className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium disabled:opacity-50 ${tab === t ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
    >
      {label}
    </button>
  );

  return (
    <div onKeyDown={onKeyDown} className="space-y-4" data-testid="spec-editor">
      <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <div className="flex gap-1 border-b border-slate-200 px-3 pt-2">
          {/* The tab list holds only tabs (aria-required-children); the status sits beside it. */}
          <div role="tablist" aria-label="Editor view" className="flex gap-1">
            {tabBtn("form", "Form")}
            {tabBtn("json", "JSON")}
          </div>
          <span className="ml-auto self-center pb-1 text-xs" aria-live="polite" data-testid="issue-count">
            {syntax ? <span className="text-rose-700">JSON does not parse</span> : issues.length ? <span className="text-rose-700">{issues.length} problem{issues.length === 1 ? "" : "s"}</span> : <span className="text-emerald-700">Valid ToolEmu {kind === "toolkit" ? "toolkit" : "case"}</span>}
          </span>
        </div>
        {(issues.length > 0 || syntax) && (
          <ul className="space-y-1 border-b border-rose-100 bg-rose-50 px-4 py-2 text-sm text-rose-900" data-testid="spec-issues" aria-label="Problems">
            {syntax && (
              <li>
                {syntax.line ? (
                  <button type="button" className="font-mono text-xs underline" onClick={() => { setTab("json"); setTimeout(() => goToLine(syntax.line!), 0); }}>
                    line {syntax.line}
                  </button>
                ) : null}{" "}
                {syntax.message}
              </li>
            )}
            {!syntax &&
              issues.map((i) => {
                const line = tab === "json" ? lineOfPath(lines, i.path) : null;
                return (
                  <li key={`${i.path}:${i.message}`} data-testid="spec-issue">
                    <button type="button" className="mr-1 font-mono text-xs underline" onClick={() => showIssue(i)} title="Go to the field">
                      {line ? `line ${line} · ` : ""}
                      {i.path || "(whole value)"}
                    </button>
                    {i.message}
                  </li>
                );
              })}
          </ul>
        )}
        <div className="p-4">
          {tab === "form" ? (
            <div role="tabpanel" id="panel-form" aria-labelledby="tab-form">
              {kind === "toolkit" ? <ToolkitForm value={value} onChange={fromForm} errorsAt={errorsAt} /> : <CaseForm value={value} onChange={fromForm} errorsAt={errorsAt} toolkitNames={toolkitNames} />}
            </div>
          ) : (
            <div role="tabpanel" id="panel-json" aria-labelledby="tab-json">
              <label htmlFor="spec-json" className="sr-only">
                {kind === "toolkit" ? "Toolkit" : "Test case"} as ToolEmu JSON
              </label>
              <textarea
                id="spec-json"
                ref={jsonRef}
                spellCheck={false}
                value={text}
                onChange={(e) => fromJson(e.target.value)}
                aria-invalid={!!syntax || issues.length > 0 || undefined}
                aria-describedby="spec-json-hint"
                rows={28}
                className="w-full rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
                data-testid="spec-json"
              />
              <p id="spec-json-hint" className="mt-1 text-xs text-slate-500">
                One {kind === "toolkit" ? "element of ToolEmu's all_toolkits.json" : "element of ToolEmu's all_cases.json"}. Problems above name the field and its line; click one to select the line. Our optional key x_toolemu_studio (risk metadata) is accepted as in imports.
              </p>
            </div>
          )}
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <Field id="version-note" label="Note for the history" optional hint="Why this change (shown in the version history)." className="min-w-[20rem] flex-1">
          {(aria) => <TextInput id="version-note" {...aria} value={note} onChange={setNote} maxLength={500} placeholder={id ? "e.g. narrower amount range" : "e.g. first draft"} />}
        </Field>
        <button type="button" className={primaryButtonCls} onClick={submit} disabled={pending} data-testid="save-spec" aria-keyshortcuts="Control+Enter">
          {pending ? "Saving…" : id ? `Save as version ${(expectedVersion ?? 0) + 1}` : "Create"}
        </button>
        <a href={cancelHref} className={secondaryButtonCls}>
          Cancel
        </a>
      </div>
      <p className="text-xs text-slate-500">Ctrl+Enter saves. {id ? `You are editing version ${expectedVersion}; if someone saves another version first, yours is refused and nothing is lost from this page.` : ""}</p>
      <FormError message={error} testId="save-error" errorRef={errorRef} />
    </div>
  );
}

/** "tools[0].name" → ["tools", 0, "name"]. */
function pathOf(p: string): PathKey[] {
  const out: PathKey[] = [];
  for (const m of p.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}
