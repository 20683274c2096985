// Who may do what, in one place. Pure data: safe to import from client components (navigation
// shows only what a role may open), but the decision that counts is always made on the server
// by withPermission (lib/auth/guard.ts).
export const ROLES = ["ADMIN", "RESEARCHER", "PI", "ANNOTATOR"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: "Admin",
  RESEARCHER: "Researcher",
  PI: "PI",
  ANNOTATOR: "Annotator",
};

const STAFF: readonly Role[] = ["ADMIN", "RESEARCHER", "PI"];

export const PERMISSIONS = {
  "toolkit:read": STAFF,
  "case:read": STAFF,
  "trajectory:read": STAFF,
  // SAGE scenarios with their hidden fields (judge specification, tool risk metadata, attacker):
  // staff only, never annotators.
  "sage:read": STAFF,
  "data:import": ["ADMIN", "RESEARCHER"],
  "run:read": STAFF,
  "run:create": ["ADMIN", "RESEARCHER"],
  // Scoring stored trajectories again (evaluation runs) and controlling those runs: researchers
  // and up — a PI checks a judge this way without starting episode runs.
  "evaluation:create": ["ADMIN", "RESEARCHER", "PI"],
  // Anyone may label, but only in campaigns they are invited to (checked per campaign); what
  // they see there is blinded whatever their role.
  "annotation:label": ["ANNOTATOR", "RESEARCHER", "PI", "ADMIN"],
  "campaign:manage": STAFF,
  // InferAct: curating tools' risk levels / critical flags, and answering the online gate's
  // interventions (a flagged critical call waits for one of these people).
  "toolkit:curate": ["ADMIN", "RESEARCHER"],
  // Authoring (issue 17): creating and editing toolkits and test cases; every save is a new version.
  "toolkit:edit": ["ADMIN", "RESEARCHER"],
  "case:edit": ["ADMIN", "RESEARCHER"],
  "intervention:answer": ["ADMIN", "RESEARCHER", "PI"],
  "campaign:adjudicate": ["ADMIN", "PI"],
  // LM generators (issue 17): starting generation jobs (they spend endpoint money), and the review
  // queue, where accepting an item creates a toolkit or case with provenance GENERATED.
  "authoring:generate": ["ADMIN", "RESEARCHER"],
  "authoring:review": ["ADMIN", "RESEARCHER"],
  "dashboard:read": STAFF,
  // Staff pick endpoints in the playground and run forms (names, models, prices; never keys).
  "endpoint:read": STAFF,
  "endpoint:manage": ["ADMIN"],
  "user:manage": ["ADMIN"],
  "audit:read": ["ADMIN"],
  // One's own account: "sign out everywhere".
  "account:own": ROLES,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return !!role && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
