"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import { ROLES, ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import { DataTable, type Column } from "@/components/ui/data-table";

interface Row { id: string; email: string; name: string; role: Role; disabled: boolean; createdAt: string }

interface Props {
  users: Row[];
  currentUserId: string;
  changeRole: (i: { userId: string; role: Role }) => Promise<ActionResult<unknown>>;
  resetPassword: (i: { userId: string; password: string }) => Promise<ActionResult<unknown>>;
  setDisabled: (i: { userId: string; disabled: boolean }) => Promise<ActionResult<unknown>>;
  signOutUser: (i: { userId: string }) => Promise<ActionResult<unknown>>;
}

export function UserTable({ users, currentUserId, changeRole, resetPassword, setDisabled, signOutUser }: Props) {
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const [resetFor, setResetFor] = useState<string | null>(null);

  function run(label: string, call: () => Promise<ActionResult<unknown>>) {
    startTransition(async () => {
      const res = await call();
      setNotice(res.ok ? { kind: "ok", text: label } : { kind: "error", text: res.error });
    });
  }

  const columns: Column<Row>[] = [
    {
      key: "user", header: "User",
      cell: (u) => (
        <>
          <div className="font-medium text-slate-900">{u.name}{u.id === currentUserId && <span className="ml-1 text-xs text-slate-500">(you)</span>}</div>
          <div className="text-slate-500">{u.email}</div>
        </>
      ),
    },
    {
      key: "role", header: "Role",
      cell: (u) => (
        <select aria-label={`Role of ${u.email}`} defaultValue={u.role} disabled={pending}
          onChange={(e) => {
            const select = e.target;
            const role = select.value as Role;
            run(`Changed the role of ${u.email} to ${ROLE_LABELS[role]}.`, async () => {
              const res = await changeRole({ userId: u.id, role });
              if (!res.ok) select.value = u.role; // refused: show the role that still holds
              return res;
            });
          }}
          className="rounded-md border border-slate-300 px-2 py-1">
          {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
        </select>
      ),
    },
    { key: "status", header: "Status", cell: (u) => (u.disabled ? <span className="text-rose-700">Disabled</span> : <span className="text-emerald-700">Active</span>) },
    {
      key: "actions", header: "Actions", align: "right",
      cell: (u) => resetFor === u.id ? (
        <form className="inline-flex gap-2" onSubmit={(e) => {
          e.preventDefault();
          const password = String(new FormData(e.currentTarget).get("password") ?? "");
          run(`Password reset for ${u.email}.`, async () => {
            const res = await resetPassword({ userId: u.id, password });
            if (res.ok) setResetFor(null);
            return res;
          });
        }}>
          <input name="password" type="password" placeholder="New password" aria-label={`New password for ${u.email}`} autoComplete="new-password" autoFocus className="w-36 rounded-md border border-slate-300 px-2 py-1" />
          <button type="submit" className="rounded-md bg-indigo-600 px-2 py-1 text-white">Save</button>
          <button type="button" onClick={() => setResetFor(null)} className="px-1 text-slate-600">Cancel</button>
        </form>
      ) : (
        <div className="inline-flex gap-2">
          <button type="button" onClick={() => setResetFor(u.id)} className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-50">Reset password</button>
          {u.id !== currentUserId && !u.disabled && (
            <button type="button" disabled={pending} title="Sign this user out everywhere: every session ends, they sign in again"
              onClick={() => run(`Signed ${u.email} out everywhere.`, () => signOutUser({ userId: u.id }))}
              className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-50">End sessions</button>
          )}
          {u.id !== currentUserId && (
            <button type="button" disabled={pending} onClick={() => run(`${u.disabled ? "Enabled" : "Disabled"} ${u.email}.`, () => setDisabled({ userId: u.id, disabled: !u.disabled }))}
              className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-50">{u.disabled ? "Enable" : "Disable"}</button>
          )}
        </div>
      ),
    },
  ];

  if (users.length === 0) return <p className="text-sm text-slate-600">No users yet.</p>;
  return (
    <div className="space-y-3">
      {notice && (
        <p role={notice.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${notice.kind === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-700"}`}>{notice.text}</p>
      )}
      <DataTable busy={pending} rows={users} rowKey={(u) => u.id} rowProps={(u) => ({ "data-testid": `user-row-${u.email}` })} rowClassName="" pad="px-4 py-2" columns={columns} />
    </div>
  );
}
