"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import { ROLES, ROLE_LABELS, type Role } from "@/lib/auth/permissions";

type CreateUser = (input: { email: string; name: string; role: Role; password: string }) => Promise<ActionResult<{ id: string; email: string }>>;

export function CreateUserForm({ createUser }: { createUser: CreateUser }) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    setPending(true);
    setMessage(null);
    const res = await createUser({
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? ""),
      role: String(form.get("role") ?? "ANNOTATOR") as Role,
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (res.ok) {
      formEl.reset();
      setFieldErrors({});
      setMessage({ kind: "ok", text: `Created ${res.data.email}.` });
    } else {
      // The form keeps what was typed so nothing is lost on an error.
      setFieldErrors(res.fieldErrors ?? {});
      setMessage({ kind: "error", text: res.error });
    }
  }

  const err = (f: string) => fieldErrors[f]?.map((m) => <p key={m} className="mt-1 text-xs text-rose-700">{m}</p>);
  const input = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm";
  return (
    <form onSubmit={onSubmit} className="h-fit space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label="Create user" noValidate>
      <h2 className="font-medium">Create a user</h2>
      <label className="block text-sm">Email<input name="email" type="email" required className={input} />{err("email")}</label>
      <label className="block text-sm">Name<input name="name" required className={input} />{err("name")}</label>
      <label className="block text-sm">Role
        <select name="role" defaultValue="ANNOTATOR" className={input}>
          {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
        </select>
      </label>
      <label className="block text-sm">Initial password<input name="password" type="password" required minLength={8} autoComplete="new-password" className={input} />{err("password")}</label>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${message.kind === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-700"}`}>{message.text}</p>
      )}
      <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60">
        {pending ? "Creating…" : "Create user"}
      </button>
    </form>
  );
}
