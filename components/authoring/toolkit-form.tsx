"use client";
// The form view of a toolkit spec: the fields ToolEmu reads, tool by tool. Keys the form does not
// show are kept as they are (edit them in the JSON view).
import { Field, Select, TextArea, TextInput, secondaryButtonCls, smallLabelCls } from "@/components/ui/form";
import { asList, asText, fieldId, getIn, setIn, type PathKey } from "./spec-path";

const TYPES = ["string", "integer", "number", "boolean", "array", "object"].map((t) => ({ value: t, label: t }));
const smallBtn = "rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50";

interface Props {
  value: unknown;
  onChange: (v: unknown) => void;
  errorsAt: (path: PathKey[]) => string[];
}

export function ToolkitForm({ value, onChange, errorsAt }: Props) {
  const set = (path: PathKey[], v: unknown) => onChange(setIn(value, path, v));
  const text = (path: PathKey[], label: string, opts: { area?: boolean; hint?: string; placeholder?: string } = {}) => {
    const id = fieldId(path);
    return (
      <Field id={id} label={label} hint={opts.hint} error={errorsAt(path)} small>
        {(aria) =>
          opts.area ? (
            <TextArea id={id} {...aria} rows={2} value={asText(getIn(value, path))} onChange={(v) => set(path, v)} />
          ) : (
            <TextInput id={id} {...aria} value={asText(getIn(value, path))} onChange={(v) => set(path, v)} placeholder={opts.placeholder} />
          )
        }
      </Field>
    );
  };
  const tools = asList(getIn(value, ["tools"]));
  const listOf = (path: PathKey[]) => asList(getIn(value, path));
  const remove = (path: PathKey[], i: number) => set(path, listOf(path).filter((_, j) => j !== i));
  const add = (path: PathKey[], item: unknown) => set(path, [...listOf(path), item]);

  const rows = (tool: number, list: "parameters" | "returns" | "exceptions") => {
    const path: PathKey[] = ["tools", tool, list];
    const items = listOf(path);
    const cols = list === "parameters" ? "sm:grid-cols-[10rem_7rem_1fr_auto_auto]" : list === "returns" ? "sm:grid-cols-[10rem_7rem_1fr_auto]" : "sm:grid-cols-[12rem_1fr_auto]";
    const label = { parameters: "Parameters", returns: "Returns", exceptions: "Exceptions" }[list];
    return (
      <fieldset className="mt-3" data-testid={`tool-${tool}-${list}`}>
        <legend className={`${smallLabelCls} mb-1 uppercase tracking-wide text-slate-500`}>{label}</legend>
        {errorsAt(path).length > 0 && <p className="text-xs text-rose-700">{errorsAt(path).join(" ")}</p>}
        {items.length === 0 && <p className="text-xs text-slate-500">None.</p>}
        <ul className="space-y-2">
          {items.map((_, i) => (
            <li key={i} className={`grid items-start gap-2 ${cols}`}>
              {text([...path, i, "name"], `${label.slice(0, -1)} ${i + 1} name`)}
              {list !== "exceptions" && (
                <Field id={fieldId([...path, i, "type"])} label="Type" error={errorsAt([...path, i, "type"])} small>
                  {(aria) => <Select id={fieldId([...path, i, "type"])} {...aria} value={asText(getIn(value, [...path, i, "type"]))} onChange={(v) => set([...path, i, "type"], v)} options={TYPES} empty="—" />}
                </Field>
              )}
              {text([...path, i, "description"], "Description")}
              {list === "parameters" && (
                <label className="mt-5 flex items-center gap-1 text-xs text-slate-700">
                  <input type="checkbox" checked={getIn(value, [...path, i, "required"]) === true} onChange={(e) => set([...path, i, "required"], e.target.checked)} />
                  required
                </label>
              )}
              <button type="button" className={`${smallBtn} mt-5`} onClick={() => remove(path, i)} aria-label={`Remove ${label.toLowerCase().slice(0, -1)} ${i + 1} of tool ${tool + 1}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`${smallBtn} mt-2`}
          onClick={() => add(path, list === "parameters" ? { name: "", type: "string", description: "", required: false } : list === "returns" ? { name: "", type: "string", description: "" } : { name: "", description: "" })}
        >
          Add {list === "parameters" ? "parameter" : list === "returns" ? "return field" : "exception"}
        </button>
      </fieldset>
    );
  };

  return (
    <div className="space-y-5" data-testid="toolkit-form">
      <div className="grid gap-3 sm:grid-cols-2">
        {text(["toolkit"], "Toolkit name", { hint: "Cases list their toolkits by this name; it cannot change once saved." })}
        {text(["name_for_model"], "Name for the model", { hint: "Prefix of the names the agent calls the tools by (e.g. BankManager → BankManagerTransferFunds)." })}
        {text(["name_for_human"], "Name for people")}
        {text(["category"], "Category", { hint: "Optional." })}
        {text(["description_for_model"], "Description for the model", { area: true })}
        {text(["description_for_human"], "Description for people", { area: true })}
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Tools ({tools.length})</h3>
        {errorsAt(["tools"]).length > 0 && <p className="text-xs text-rose-700">{errorsAt(["tools"]).join(" ")}</p>}
        <ol className="mt-2 space-y-4">
          {tools.map((_, t) => (
            <li key={t} className="rounded-lg border border-slate-200 bg-slate-50/60 p-4" aria-label={`Tool ${t + 1}: ${asText(getIn(value, ["tools", t, "name"])) || "unnamed"}`} data-testid="tool-editor">
              <div className="grid gap-3 sm:grid-cols-[16rem_1fr_auto]">
                {text(["tools", t, "name"], `Tool ${t + 1} name`, { placeholder: "e.g. TransferFunds" })}
                {text(["tools", t, "summary"], "Summary", { area: true })}
                <button type="button" className={`${smallBtn} mt-5 self-start`} onClick={() => remove(["tools"], t)} aria-label={`Remove tool ${t + 1}`}>
                  Remove tool
                </button>
              </div>
              {rows(t, "parameters")}
              {rows(t, "returns")}
              {rows(t, "exceptions")}
            </li>
          ))}
        </ol>
        <button type="button" className={`${secondaryButtonCls} mt-3`} onClick={() => add(["tools"], { name: "", summary: "", parameters: [], returns: [], exceptions: [] })}>
          Add tool
        </button>
      </div>
    </div>
  );
}
