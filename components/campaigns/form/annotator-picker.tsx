// The "Annotators" section of the new-campaign form: k per trajectory and whom to invite.
import { ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import { Field, FormSection, NumberInput, labelCls } from "@/components/ui/form";

export interface InvitableUserRow {
  id: string;
  name: string;
  email: string;
  role: Role;
}

interface Props {
  uid: string;
  users: InvitableUserRow[];
  k: string;
  onK: (k: string) => void;
  kNum: number | undefined;
  invited: Set<string>;
  onInvited: (next: Set<string>) => void;
  errors: (...keys: string[]) => string[];
}

export function AnnotatorPicker({ uid, users, k, onK, kNum, invited, onInvited, errors }: Props) {
  const annotatorRoleIds = users.filter((u) => u.role === "ANNOTATOR").map((u) => u.id);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(invited);
    if (on) next.add(id);
    else next.delete(id);
    onInvited(next);
  };
  const inviteErrors = errors("annotatorIds");
  const inviteErrorId = `${uid}-annotatorIds-error`;
  return (
    <FormSection id={`${uid}-people`} title="Annotators">
      <div className="mt-4 grid gap-4 sm:grid-cols-[14rem_1fr]">
        <div>
          <Field id={`${uid}-k`} label="Annotators per trajectory (k)" error={errors("k")}>
            {(aria) => <NumberInput id={`${uid}-k`} type="number" min={1} max={20} value={k} onChange={onK} data-testid="campaign-k" {...aria} />}
          </Field>
          {kNum !== undefined && kNum !== null && kNum >= 2 && kNum % 2 === 0 && (
            <p className="mt-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800 ring-1 ring-amber-200" role="status" data-testid="even-k-warning">
              With an even k, every {kNum / 2}–{kNum / 2} split is a tie with no majority: the dashboards leave ties out by default, and the campaign
              page lists them for adjudication. An odd k (e.g. {kNum + 1}) avoids most of them.
            </p>
          )}
        </div>
        <p className="self-end text-xs text-slate-500">Each trajectory is labelled by k different people, so invite at least k. Any role can be invited; what they see while labelling is blinded.</p>
      </div>
      <fieldset className="mt-4" {...(inviteErrors.length ? { "aria-invalid": true, "aria-describedby": inviteErrorId } : {})}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <legend className={labelCls}>Invite <span className="font-normal text-slate-500">({invited.size} chosen{kNum ? `, at least ${kNum} needed` : ""})</span></legend>
          <div className="flex gap-2 text-xs">
            <button type="button" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => onInvited(new Set(annotatorRoleIds))} disabled={annotatorRoleIds.length === 0}>All annotators</button>
            <button type="button" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => onInvited(new Set())} disabled={invited.size === 0}>Clear</button>
          </div>
        </div>
        {users.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">There are no active users to invite.</p>
        ) : (
          <ul className="mt-2 grid max-h-80 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2" data-testid="invite-list">
            {users.map((u) => (
              <li key={u.id}>
                <label className={`flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-50 ${invited.has(u.id) ? "bg-indigo-50/60" : ""}`}>
                  <input type="checkbox" checked={invited.has(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} aria-label={`Invite ${u.name} (${u.email})`} data-testid={`invite-${u.email}`} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">{u.name}</span>
                    <span className="block truncate text-xs text-slate-500">{u.email}</span>
                  </span>
                  <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${u.role === "ANNOTATOR" ? "bg-sky-50 text-sky-700" : "bg-slate-100 text-slate-600"}`}>{ROLE_LABELS[u.role]}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {inviteErrors.length > 0 && <p id={inviteErrorId} className="mt-1 text-xs text-rose-700">{inviteErrors.join(" ")}</p>}
      </fieldset>
    </FormSection>
  );
}
