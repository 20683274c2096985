"use client";

import { useId, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { TokenParam } from "@/lib/llm/types";

export interface EndpointFormValues {
  name: string;
  baseUrl: string;
  model: string;
  apiKeyEnv: string;
  temperature: number;
  maxTokens: number;
  tokenParam: TokenParam;
  timeoutMs: number;
  maxConcurrency: number;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  cacheEnabled: boolean;
}

/** What the form sends: numbers as typed (the server's schema coerces and checks them). */
export type EndpointFormInput = Omit<EndpointFormValues, "temperature" | "maxTokens" | "timeoutMs" | "maxConcurrency" | "priceInputPer1k" | "priceOutputPer1k"> & {
  temperature: string;
  maxTokens: string;
  timeoutMs: string;
  maxConcurrency: string;
  priceInputPer1k: string;
  priceOutputPer1k: string;
};

interface Props {
  /** Starting values; for a new endpoint the defaults. */
  initial: EndpointFormValues;
  title: string;
  submitLabel: string;
  /** The offline model's row: its URL and model id are managed by npm start. */
  offline?: boolean;
  onSubmit: (values: EndpointFormInput) => Promise<ActionResult<{ id: string; name: string }>>;
  onDone?: (name: string) => void;
  onCancel?: () => void;
  /** New endpoints: clear the fields after a success. */
  resetOnSuccess?: boolean;
}

export function EndpointForm({ initial, title, submitLabel, offline = false, onSubmit, onDone, onCancel, resetOnSuccess = false }: Props) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [temperature, setTemperature] = useState(String(initial.temperature));
  const [cache, setCache] = useState(initial.cacheEnabled);
  // Until someone sets the switch, it follows the temperature: on at 0, off above.
  const [cacheTouched, setCacheTouched] = useState(!resetOnSuccess);
  const uid = useId();

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const f = new FormData(formEl);
    const s = (k: string) => String(f.get(k) ?? "");
    setPending(true);
    setMessage(null);
    const res = await onSubmit({
      name: s("name"),
      baseUrl: s("baseUrl"),
      model: s("model"),
      apiKeyEnv: s("apiKeyEnv"),
      temperature,
      maxTokens: s("maxTokens"),
      // The server's schema refuses anything but the two options.
      tokenParam: s("tokenParam") as TokenParam,
      timeoutMs: s("timeoutMs"),
      maxConcurrency: s("maxConcurrency"),
      priceInputPer1k: s("priceInputPer1k"),
      priceOutputPer1k: s("priceOutputPer1k"),
      cacheEnabled: cache,
    });
    setPending(false);
    if (res.ok) {
      setFieldErrors({});
      if (resetOnSuccess) {
        formEl.reset();
        setTemperature(String(initial.temperature));
        setCache(initial.cacheEnabled);
        setCacheTouched(false);
      }
      setMessage({ kind: "ok", text: `Saved "${res.data.name}".` });
      onDone?.(res.data.name);
    } else {
      setFieldErrors(res.fieldErrors ?? {});
      setMessage({ kind: "error", text: res.error });
    }
  }

  const err = (k: string) => fieldErrors[k]?.map((m) => <p key={m} className="mt-1 text-xs text-rose-700">{m}</p>);
  const input = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm read-only:bg-slate-50 read-only:text-slate-500";
  // Hints sit outside the <label> (linked by aria-describedby) so each field's name is only its label.
  const hint = (name: string, text: string) => <p id={`${uid}-${name}-hint`} className="mt-0.5 text-xs text-slate-500">{text}</p>;
  const described = (name: string, has: boolean) => (has ? { "aria-describedby": `${uid}-${name}-hint` } : {});
  const num = (name: keyof EndpointFormValues, label: string, step: string, help?: string) => (
    <div className="text-sm">
      <label className="block">
        {label}
        <input name={name} type="number" inputMode="decimal" step={step} min={0} defaultValue={String(initial[name])} required className={input} {...described(name, !!help)} />
      </label>
      {help && hint(name, help)}
      {err(name)}
    </div>
  );

  return (
    <form onSubmit={submit} className="space-y-3" aria-label={title} noValidate>
      <h2 className="font-medium">{title}</h2>
      <div className="text-sm">
        <label className="block">Name<input name="name" defaultValue={initial.name} required maxLength={80} className={input} placeholder="e.g. gpt-4o-mini (OpenAI)" /></label>
        {err("name")}
      </div>
      <div className="text-sm">
        <label className="block">
          Base URL
          <input name="baseUrl" type="url" defaultValue={initial.baseUrl} required readOnly={offline} className={input} placeholder="https://api.openai.com/v1" {...described("baseUrl", true)} />
        </label>
        {hint("baseUrl", offline ? "Set by npm start to where the offline model listens." : "Up to /v1, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM).")}
        {err("baseUrl")}
      </div>
      <div className="text-sm">
        <label className="block">Model id<input name="model" defaultValue={initial.model} required readOnly={offline} className={input} placeholder="gpt-4o-mini" /></label>
        {err("model")}
      </div>
      <div className="text-sm">
        <label className="block">
          API key variable
          <input name="apiKeyEnv" defaultValue={initial.apiKeyEnv} autoComplete="off" spellCheck={false} className={`${input} font-mono`} placeholder="OPENAI_API_KEY (empty: no key)" {...described("apiKeyEnv", true)} />
        </label>
        {hint("apiKeyEnv", "The NAME of an environment variable on the server, never the key itself: LLM_KEY_… (e.g. LLM_KEY_OPENROUTER) or OPENAI_API_KEY.")}
        {err("apiKeyEnv")}
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="text-sm">
          <label className="block">
            Temperature
            <input name="temperature" type="number" inputMode="decimal" step="0.1" min={0} max={2} value={temperature} required className={input}
              onChange={(e) => {
                setTemperature(e.target.value);
                if (!cacheTouched) setCache(Number(e.target.value) === 0);
              }} />
          </label>
          {err("temperature")}
        </div>
        {num("maxTokens", "Max tokens", "1")}
        <div className="text-sm">
          <label className="block">
            Token limit field
            <select name="tokenParam" defaultValue={initial.tokenParam} className={input} {...described("tokenParam", true)}>
              <option value="max_tokens">max_tokens</option>
              <option value="max_completion_tokens">max_completion_tokens</option>
            </select>
          </label>
          {hint("tokenParam", "The request field Max tokens is sent in. OpenAI reasoning models need max_completion_tokens.")}
          {err("tokenParam")}
        </div>
        {num("timeoutMs", "Timeout (ms)", "1000")}
        {num("maxConcurrency", "Max concurrency", "1", "Requests at once")}
        {num("priceInputPer1k", "$ per 1k input", "any")}
        {num("priceOutputPer1k", "$ per 1k output", "any")}
      </div>
      <div className="text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={cache} onChange={(e) => { setCache(e.target.checked); setCacheTouched(true); }} {...described("cache", true)} />
          Cache responses
        </label>
        {hint("cache", "Identical requests reuse the stored answer (no cost). On by default at temperature 0.")}
      </div>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${message.kind === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-700"}`}>{message.text}</p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className="flex-1 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60">
          {pending ? "Saving…" : submitLabel}
        </button>
        {onCancel && <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Cancel</button>}
      </div>
    </form>
  );
}
