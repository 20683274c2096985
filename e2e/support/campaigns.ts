import { expect, type Locator, type Page } from "@playwright/test";

export interface SampledCampaignForm {
  name: string;
  /** How many trajectories are sampled. */
  n: number;
  /** Annotators per item. */
  k: number;
  /** The demo annotators invited (default: Ana and Ari). */
  invite?: string[];
  /** The rest of the form, filled (and checked) before it is submitted. */
  more?: (form: Locator) => Promise<void>;
}

/**
 * Staff (signed in) create a sampled campaign with the New campaign form; returns its id, with the
 * campaign's page open. (campaigns.spec tests the form itself: refusals, guidelines preview.)
 */
export async function createSampledCampaign(page: Page, c: SampledCampaignForm): Promise<string> {
  await page.goto("/campaigns/new");
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(c.name);
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill(String(c.n));
  await form.getByTestId("campaign-k").fill(String(c.k));
  for (const email of c.invite ?? ["annotator@demo.local", "annotator2@demo.local"]) await form.getByTestId(`invite-${email}`).check();
  await c.more?.(form);
  await form.getByTestId("create-campaign").click();
  await expect(page.getByTestId("campaign-name")).toHaveText(c.name);
  return new URL(page.url()).pathname.split("/").pop()!;
}
