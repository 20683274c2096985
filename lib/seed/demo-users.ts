// Demo accounts, one per role, for the embedded default and `npm run db:seed -- --demo`.
// Their passwords are public (printed at start): never seed them into a real deployment
// unless asked.
import type { Db } from "@/lib/db/client";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/permissions";

export interface DemoUser {
  email: string;
  name: string;
  role: Role;
  password: string;
}

export const DEMO_USERS: DemoUser[] = [
  { email: "admin@demo.local", name: "Ada Admin", role: "ADMIN", password: "admin-demo-1" },
  { email: "researcher@demo.local", name: "Rhea Researcher", role: "RESEARCHER", password: "researcher-demo-1" },
  { email: "pi@demo.local", name: "Paul PI", role: "PI", password: "pi-demo-1" },
  { email: "annotator@demo.local", name: "Ana Annotator", role: "ANNOTATOR", password: "annotator-demo-1" },
  { email: "annotator2@demo.local", name: "Ari Annotator", role: "ANNOTATOR", password: "annotator-demo-2" },
  { email: "annotator3@demo.local", name: "Avi Annotator", role: "ANNOTATOR", password: "annotator-demo-3" },
];

/** Creates the demo users that do not exist yet; returns how many were created. */
export async function seedDemoUsers(db: Db): Promise<number> {
  let created = 0;
  for (const u of DEMO_USERS) {
    const exists = await db.user.findUnique({ where: { email: u.email }, select: { id: true } });
    if (exists) continue;
    await db.user.create({
      data: { email: u.email, name: u.name, role: u.role, passwordHash: await hashPassword(u.password) },
    });
    created++;
  }
  return created;
}

/** The demo users whose printed password still works (so the banner never lies). */
export async function usableDemoUsers(db: Db): Promise<DemoUser[]> {
  const rows = await db.user.findMany({
    where: { email: { in: DEMO_USERS.map((u) => u.email) }, disabled: false },
    select: { email: true, passwordHash: true },
  });
  const hashes = new Map(rows.map((r) => [r.email, r.passwordHash]));
  const usable: DemoUser[] = [];
  for (const u of DEMO_USERS) {
    const hash = hashes.get(u.email);
    if (hash && (await verifyPassword(u.password, hash))) usable.push(u);
  }
  return usable;
}
