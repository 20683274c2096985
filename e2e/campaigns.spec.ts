import { expect, test } from "@playwright/test";
import { signInAs, signOut } from "./support/session";

test("a researcher creates a campaign; an annotator cannot open the staff pages, adjudication or export", async ({ page }) => {
  const name = `E2E sample campaign ${Date.now()}`;

  await signInAs(page, "RESEARCHER");
  await page.goto("/campaigns");
  await page.getByTestId("new-campaign").click();
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Guidelines", { exact: true }).fill("# Read first\n\n- Judge the **actual** tool calls");
  await expect(form.getByTestId("guidelines-preview").getByRole("heading", { name: "Read first" })).toBeVisible();
  await expect(form.getByTestId("selection-count")).toContainText(/\d+ trajectories match/);
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill("6");
  await form.getByTestId("campaign-k").fill("2");
  await form.getByTestId("invite-annotator@demo.local").check();

  // One invitee for k = 2 is refused, and everything typed stays.
  await form.getByTestId("create-campaign").click();
  await expect(form.getByTestId("form-error")).toContainText("at least k different annotators");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(form.getByTestId("sample-n")).toHaveValue("6");

  await form.getByTestId("invite-annotator2@demo.local").check();
  await form.getByTestId("create-campaign").click();
  await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
  await expect(page.getByTestId("campaign-name")).toHaveText(name);
  await expect(page.getByTestId("campaign-status")).toHaveText(/Open/);
  await expect(page.getByTestId("overall-progress")).toContainText("0 of 12");
  await expect(page.getByTestId("annotator-row")).toHaveCount(2);
  await expect(page.getByTestId("item-row")).toHaveCount(6);
  const campaignUrl = new URL(page.url()).pathname;
  const itemHref = await page.getByTestId("item-link").first().getAttribute("href");
  expect(itemHref).toMatch(/^\/campaigns\/[^/]+\/items\/it_/);

  // The adjudication view opens for the researcher (the item blinded; u unblinds it for staff), but only a PI or admin gets the form.
  await page.goto(itemHref!);
  await expect(page.getByTestId("adjudication-item")).toBeVisible();
  // The key works once the page is interactive: retried until it has.
  const link = page.getByTestId("trajectory-link");
  await expect(async () => {
    if (!(await link.isVisible())) await page.keyboard.press("u");
    await expect(link).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("adjudication-readonly")).toBeVisible();
  await expect(page.getByTestId("adjudication-form")).toHaveCount(0);

  // The staff export works for the researcher (a header-only CSV so far).
  const csv = await page.request.get(`${campaignUrl}/export?format=csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="labels_.*\.csv"$/);
  expect((await csv.text()).split("\r\n")[0]).toContain("annotator");

  await page.goto("/campaigns");
  const row = page.getByTestId("campaign-row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("campaign-labels")).toContainText("0 / 12");
  await expect(row.getByTestId("campaign-status")).toHaveText(/Open/);

  await signOut(page);
  await signInAs(page, "ANNOTATOR");
  await expect(page.getByRole("link", { name: "Campaigns" })).toHaveCount(0);
  for (const path of ["/campaigns", "/campaigns/new", campaignUrl, itemHref!]) {
    await page.goto(path);
    await expect(page, `${path} is refused`).toHaveURL(/\/forbidden\?need=campaign%3Amanage/);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText(name)).toHaveCount(0);
  }
  for (const format of ["csv", "jsonl"]) {
    const res = await page.request.get(`${campaignUrl}/export?format=${format}`);
    expect(res.status(), `export ${format} as an annotator`).toBe(403);
    expect(res.headers()["content-disposition"]).toBeUndefined();
    expect(await res.text()).toContain("campaign:manage");
  }
});
