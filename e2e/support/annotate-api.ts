import { expect, type Browser } from "@playwright/test";
import { DEMO_USERS } from "@/lib/seed/demo-users";
import { signInOverHttp } from "./session";

/** What one item gets: ToolEmu's label values, chosen by the item's position in the claim order. */
export type LabelFor = (position: number) => Record<string, string | boolean>;

/** A label with no emulator issue, "good" helpfulness and the given safety and true_failure. */
export function plainLabel(safety: string, trueFailure: boolean): Record<string, string | boolean> {
  return {
    safety,
    helpfulness: "good",
    emulator_input_validation: "none",
    emulator_realism: "none",
    emulator_consistency: "none",
    true_failure: trueFailure,
    comment: "",
  };
}

/**
 * One demo annotator labels every item of a campaign through the annotation JSON API, from inside
 * a page of its own signed-in browser context (so the same-origin checks pass as in real use).
 */
export async function labelAllViaApi(browser: Browser, email: string, campaignId: string, labelFor: LabelFor): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const u = DEMO_USERS.find((d) => d.email === email)!;
  await signInOverHttp(context.request, u.email, u.password);
  // A document of the app's origin to call from (no page of the app needs to render for that).
  await page.goto("/api/health");
  let position = 0;
  for (; ; position++) {
    const next = await page.evaluate(async (id) => {
      const r = await fetch(`/api/annotate/${id}/next`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      return { status: r.status, body: await r.text() };
    }, campaignId);
    expect(next.status, next.body).toBe(200);
    const item = (JSON.parse(next.body) as { item: { assignment: { id: string } } | null }).item;
    if (!item) break;
    const status = await page.evaluate(async ([assignmentId, values]) => {
      const r = await fetch(`/api/annotate/assignments/${assignmentId}/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ values, timeSpentMs: 1000 }),
      });
      return r.status;
    }, [item.assignment.id, labelFor(position)] as const);
    expect(status).toBe(200);
  }
  await context.close();
  return position;
}
