// Issue 12, over HTTP and in Chromium: uploads checked before their body is read and capped,
// revocable sessions, the sign-in redirect, the annotation API's origin and content-type checks,
// security headers (no framing, no CSP violations), the health endpoint, per-address throttling
// and bodies over the size limit.
import { readFileSync } from "node:fs";
import http from "node:http";
import { expect, request as pwRequest, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { DEMO_USERS } from "@/lib/seed/demo-users";
import { alert, demoUser, signIn, signInAs, signInWithForm } from "./support/session";

const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;
const COOKIE = "next-auth.session-token";
const SOME_UUID = "00000000-0000-4000-8000-000000000000";

let bare: APIRequestContext;
test.beforeAll(async () => {
  bare = await pwRequest.newContext({ baseURL });
});
test.afterAll(() => bare.dispose());

/** Signs in over HTTP, as a script would; returns the session token and where next-auth said to go. */
async function apiSignIn(email: string, password: string, headers: Record<string, string> = {}): Promise<{ token: string | null; url: string }> {
  const ctx = await pwRequest.newContext({ baseURL });
  try {
    const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await ctx.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, json: "true" }, headers, maxRedirects: 0 });
    const url = res.headers()["location"] ?? ((await res.json().catch(() => ({}))) as { url?: string }).url ?? "";
    const token = (await ctx.storageState()).cookies.find((c) => c.name === COOKIE)?.value ?? null;
    return { token, url: decodeURIComponent(url) };
  } finally {
    await ctx.dispose();
  }
}

const withToken = (token: string) => ({ cookie: `${COOKIE}=${token}` });

/** The import progress endpoint as a probe: 200 for a live researcher session, 401/403 otherwise. */
async function probe(token: string): Promise<number> {
  return (await bare.get(`/api/import/progress/${SOME_UUID}`, { headers: withToken(token) })).status();
}

/** What /api/auth/session answers for the token, and whether it renewed the cookie. */
async function renew(token: string): Promise<{ user: unknown; renewed: boolean }> {
  const res = await bare.get("/api/auth/session", { headers: withToken(token) });
  const body = (await res.json()) as { user?: unknown };
  const set = res.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith(`${COOKIE}=`));
  return { user: body.user ?? null, renewed: set.some((h) => !/^[^=]+=;/.test(h.value) && !/Max-Age=0/i.test(h.value)) };
}

async function createUser(admin: Page, email: string, role = "RESEARCHER", password = "first-password-1") {
  await admin.goto("/admin/users");
  const form = admin.getByRole("form", { name: "Create user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill(email.split("@")[0]!);
  await form.getByLabel("Role").selectOption(role);
  await form.getByLabel("Initial password").fill(password);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("status")).toHaveText(`Created ${email}.`);
}

async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, "ADMIN");
  return page;
}

test.describe("revocable sessions", () => {
  test("signing out ends the token, also a copy of it; /api/auth/session does not renew it", async ({ browser }) => {
    const admin = await adminPage(browser);
    await createUser(admin, "signout@lab.example");
    const { token } = await apiSignIn("signout@lab.example", "first-password-1");
    expect(token).toBeTruthy();
    expect(await probe(token!)).toBe(200);
    expect((await renew(token!)).renewed).toBe(true);

    // Sign out as the browser does (POST with the CSRF token).
    const ctx = await pwRequest.newContext({
      baseURL,
      // In the context's jar, beside the CSRF cookie (an explicit Cookie header would replace both).
      storageState: { cookies: [{ name: COOKIE, value: token!, domain: "localhost", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }], origins: [] },
    });
    const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const out = await ctx.post("/api/auth/signout", { form: { csrfToken, json: "true" }, maxRedirects: 0 });
    expect(out.status()).toBeLessThan(400);
    // next-auth cleared the cookie in that browser...
    expect((await ctx.storageState()).cookies.find((c) => c.name === COOKIE)).toBeUndefined();
    await ctx.dispose();
    // ...and a copy of it is refused from now on.

    expect(await probe(token!)).toBe(401);
    expect(await renew(token!)).toEqual({ user: null, renewed: false });
    // Another session of the same user goes on.
    const other = await apiSignIn("signout@lab.example", "first-password-1");
    expect(await probe(other.token!)).toBe(200);
  });

  test("a password reset, a role change, disabling (and enabling again) and an admin's sign-out each end the old tokens", async ({ browser }) => {
    const admin = await adminPage(browser);
    const row = (email: string) => admin.getByTestId(`user-row-${email}`);
    const cases: [string, (email: string) => Promise<void>][] = [
      ["reset", async (email) => {
        await row(email).getByRole("button", { name: "Reset password" }).click();
        await row(email).getByLabel(`New password for ${email}`).fill("first-password-1");
        await row(email).getByRole("button", { name: "Save" }).click();
        await expect(admin.getByRole("status").first()).toContainText(`Password reset for ${email}`);
      }],
      ["role", async (email) => {
        // Still a role that may read import progress: the token dies for the change itself.
        await row(email).getByLabel(`Role of ${email}`).selectOption("ADMIN");
        await expect(admin.getByRole("status").first()).toContainText(`Changed the role of ${email}`);
      }],
      ["disable", async (email) => {
        await row(email).getByRole("button", { name: "Disable" }).click();
        await expect(admin.getByRole("status").first()).toContainText(`Disabled ${email}`);
        await row(email).getByRole("button", { name: "Enable" }).click();
        await expect(admin.getByRole("status").first()).toContainText(`Enabled ${email}`);
      }],
      ["kicked", async (email) => {
        await row(email).getByRole("button", { name: "End sessions" }).click();
        await expect(admin.getByRole("status").first()).toContainText(`Signed ${email} out everywhere`);
      }],
    ];
    for (const [name, change] of cases) {
      const email = `sess-${name}@lab.example`;
      await createUser(admin, email);
      const { token } = await apiSignIn(email, "first-password-1");
      expect(await probe(token!), `${name}: before`).toBe(200);
      await admin.goto("/admin/users");
      await change(email);
      expect(await probe(token!), `${name}: after`).toBe(401);
      expect(await renew(token!), `${name}: renewal`).toEqual({ user: null, renewed: false });
      // The user can sign in again at once.
      expect(await probe((await apiSignIn(email, "first-password-1")).token!), `${name}: new sign-in`).toBe(200);
    }
  });

  test("a demoted user's token no longer reads import progress (the guard reads the user, not the token's role)", async ({ browser }) => {
    const admin = await adminPage(browser);
    await createUser(admin, "demoted@lab.example");
    const { token } = await apiSignIn("demoted@lab.example", "first-password-1");
    expect(await probe(token!)).toBe(200);
    await admin.getByTestId("user-row-demoted@lab.example").getByLabel("Role of demoted@lab.example").selectOption("ANNOTATOR");
    await expect(admin.getByRole("status").first()).toContainText("to Annotator");
    expect(await probe(token!)).toBe(401);
    const fresh = await apiSignIn("demoted@lab.example", "first-password-1");
    expect(await probe(fresh.token!)).toBe(403);
  });

  test("sign out everywhere from the user menu ends the user's other sessions too", async ({ browser }) => {
    const admin = await adminPage(browser);
    await createUser(admin, "everywhere@lab.example");
    const elsewhere = await apiSignIn("everywhere@lab.example", "first-password-1");
    expect(await probe(elsewhere.token!)).toBe(200);
    const page = await (await browser.newContext()).newPage();
    await signIn(page, "everywhere@lab.example", "first-password-1");
    await expect(page.getByTestId("current-user")).toBeVisible();
    await page.getByLabel("Account menu").click();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/signin/);
    expect(await probe(elsewhere.token!)).toBe(401);
    await page.goto("/toolkits");
    await expect(page).toHaveURL(/\/signin/);
  });
});

test.describe("sign-in page", () => {
  for (const callback of ["/%5Cevil.example", "//evil.example", "/%5C%5Cevil.example", "https://evil.example/", "/%09/evil.example"]) {
    test(`callbackUrl=${callback} lands on this site after signing in`, async ({ page }) => {
      await page.goto(`/signin?callbackUrl=${callback}`);
      const u = demoUser("RESEARCHER");
      await page.getByLabel("Email").fill(u.email);
      await page.getByLabel("Password").fill(u.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("current-user")).toContainText(u.name);
      expect(new URL(page.url()).origin).toBe(baseURL);
    });
  }

  test("a same-site callbackUrl still works", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fcases");
    const u = demoUser("PI");
    await page.getByLabel("Email").fill(u.email);
    await page.getByLabel("Password").fill(u.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${baseURL}/cases`);
  });

  test("?error= shows only known codes, in our words", async ({ page }) => {
    await page.goto("/signin?error=Your%20account%20is%20suspended.%20Call%20%2B1%20555%200100");
    await expect(alert(page)).toHaveText("Sign-in failed. Please try again.");
    await expect(page.getByText("suspended")).toHaveCount(0);
  });

  test("many failures from one address are throttled, whatever the emails", async () => {
    const ip = "198.51.100.23";
    for (let i = 0; i < 50; i++) {
      const r = await apiSignIn(`nobody-${i % 10}-${Math.floor(i / 10)}@lab.example`, "wrong", { "x-forwarded-for": ip });
      expect(r.token).toBeNull();
    }
    const u = demoUser("PI");
    const blocked = await apiSignIn(u.email, u.password, { "x-forwarded-for": ip });
    expect(blocked.token).toBeNull();
    expect(blocked.url).toContain("Too many failed sign-ins from your network address");
    expect((await apiSignIn(u.email, u.password, { "x-forwarded-for": "198.51.100.24" })).token).toBeTruthy();
  });
});

/** A raw HTTP POST that sends its headers and only `sent` bytes of the body, then waits for the answer. */
function partialPost(path: string, headers: Record<string, string>, sent: number): { response: Promise<{ status: number; body: string }>; abort: () => void } {
  const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
  req.write(Buffer.alloc(sent, 0x61));
  return {
    response,
    abort: () => {
      response.catch(() => {}); // the hang-up we cause is expected
      req.destroy();
    },
  };
}

test.describe("uploads", () => {
  const multipart = { "content-type": "multipart/form-data; boundary=xyz" };

  test("a signed-out upload is refused before its body is read", async () => {
    // 300 MB declared, 64 kB sent: the answer must come without the rest.
    const up = partialPost("/api/import/uploads", { ...multipart, "content-length": String(300e6) }, 65536);
    expect(await up.response).toMatchObject({ status: 401 });
    up.abort();
  });

  test("a body over the cap is refused with 413 and a clear message; uploads at once per user are limited", async () => {
    const { token } = await apiSignIn(demoUser("RESEARCHER").email, demoUser("RESEARCHER").password);
    const cookie = withToken(token!);
    const big = partialPost("/api/import/uploads", { ...multipart, ...cookie, "content-length": String(3e9) }, 1024);
    const answer = await big.response;
    big.abort();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toBe("This upload is larger than the limit of 2 GB (UPLOAD_MAX_BYTES). Upload the files in several parts, or ask the administrator to raise the limit.");

    // Two uploads that stay open, then a third from the same user.
    const open = [0, 1].map(() => partialPost("/api/import/uploads", { ...multipart, ...cookie, "transfer-encoding": "chunked" }, 100));
    let third = { status: 0, body: "" };
    await expect(async () => {
      const attempt = partialPost("/api/import/uploads", { ...multipart, ...cookie, "content-length": "10" }, 10);
      third = await attempt.response.finally(() => attempt.abort());
      expect(third.status).toBe(429);
    }).toPass({ timeout: 15_000 });
    expect(JSON.parse(third.body).error).toMatch(/^You already have 2 uploads in progress \(at most 2 at once, UPLOAD_MAX_CONCURRENT\)/);
    for (const o of open) o.abort();
  });

  test("an upload from another origin is refused", async () => {
    const { token } = await apiSignIn(demoUser("RESEARCHER").email, demoUser("RESEARCHER").password);
    const res = await bare.post("/api/import/uploads", {
      headers: { ...withToken(token!), origin: "http://evil.example", "content-type": "multipart/form-data; boundary=xyz" },
      data: "--xyz--\r\n",
    });
    expect(res.status()).toBe(403);
  });
});

test.describe("annotation API", () => {
  test("a cross-origin text/plain POST is refused; so is a same-origin one that is not JSON", async () => {
    const a = DEMO_USERS.find((u) => u.email === "annotator3@demo.local")!;
    const { token } = await apiSignIn(a.email, a.password);
    const draft = (headers: Record<string, string>, data: string) =>
      bare.post("/api/annotate/assignments/no-such-assignment/draft", { headers: { ...withToken(token!), ...headers }, data });
    const body = JSON.stringify({ draft: {}, timeSpentMs: 1 });
    const cross = await draft({ origin: "http://annotate.evil.example", "content-type": "text/plain" }, body);
    expect(cross.status()).toBe(403);
    expect((await cross.json()).error).toContain("another origin");
    expect((await draft({ "sec-fetch-site": "same-site", "content-type": "application/json" }, body)).status()).toBe(403);
    const plain = await draft({ origin: baseURL, "content-type": "text/plain" }, body);
    expect(plain.status()).toBe(415);
    // The same request as JSON from our origin reaches the handler (no such assignment).
    expect((await draft({ origin: baseURL, "content-type": "application/json" }, body)).status()).toBe(404);
  });

  test("a body over the proxy's limit is answered 413, not cut short", async () => {
    const a = DEMO_USERS.find((u) => u.email === "annotator3@demo.local")!;
    const { token } = await apiSignIn(a.email, a.password);
    const huge = JSON.stringify({ draft: { note: "x".repeat(11 * 1024 * 1024) }, timeSpentMs: 1 });
    const res = await bare.post("/api/annotate/assignments/no-such-assignment/draft", { headers: { ...withToken(token!), "content-type": "application/json" }, data: huge });
    expect(res.status()).toBe(413);
    expect((await res.json()).error).toMatch(/at most 10 MB/);
  });
});

test("a server action body over its limit is answered 413, not 500", async ({ page }) => {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName: string }>;
  };
  const actionId = Object.entries(manifest.node).find(([, v]) => v.exportedName === "createUserAction")?.[0];
  expect(actionId, "createUserAction in the server-reference manifest").toBeTruthy();
  await signInAs(page, "ADMIN");
  const res = await page.request.post("/admin/users", {
    headers: { "Next-Action": actionId!, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component" },
    data: JSON.stringify([{ email: "big@lab.example", name: "x".repeat(2 * 1024 * 1024), role: "PI", password: "big-password-1" }]),
  });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatch(/at most 1 MB/);
});

test.describe("security headers", () => {
  test("pages carry a nonce CSP that forbids framing, and the static headers", async () => {
    const res = await bare.get("/signin");
    const h = res.headers();
    expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("same-origin");
    expect(h["x-frame-options"]).toBe("DENY");
    // A fresh nonce each time, and on the page's own scripts.
    const nonce = /'nonce-([^']+)'/.exec(h["content-security-policy"]!)![1]!;
    expect(await res.text()).toContain(`nonce="${nonce}"`);
    const again = (await bare.get("/signin")).headers()["content-security-policy"];
    expect(again).not.toContain(nonce);
  });

  test("a same-site page cannot frame the admin page", async ({ page }) => {
    await signInAs(page, "ADMIN");
    const console: string[] = [];
    page.on("console", (m) => console.push(m.text()));
    // Another port on the same host: same-site, so the admin's cookies go along with the frame.
    const framer = await new Promise<http.Server>((resolve) => {
      const s = http
        .createServer((_req, res) => res.end(`<iframe id="f" src="${baseURL}/admin/users" width="800" height="600" onload="document.title='framed'"></iframe>`))
        .listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      await page.goto(`http://localhost:${(framer.address() as { port: number }).port}/`);
      // The frame's load event fires whether it was shown or blocked; then look inside it.
      await page.waitForFunction(() => document.title === "framed");
      const child = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await child.evaluate(() => document.body?.innerText ?? "")).not.toContain("admin@demo.local");
      expect(console.join("\n")).toContain("frame-ancestors 'none'");
    } finally {
      framer.close();
    }
  });

  const PAGES: Record<"ADMIN" | "ANNOTATOR", string[]> = {
    ADMIN: ["/", "/toolkits", "/cases", "/trajectories", "/import", "/playground", "/runs", "/campaigns", "/dashboards", "/dashboards/agreement", "/prompts", "/admin/users", "/admin/endpoints"],
    ANNOTATOR: ["/annotate"],
  };
  for (const role of ["ADMIN", "ANNOTATOR"] as const) {
    test(`${role}: the main pages run their scripts with no CSP violation`, async ({ page }) => {
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`${page.url()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
      // With the form: the sign-in page's scripts are checked too.
      await signInWithForm(page, role);
      for (const path of PAGES[role]) {
        await page.goto(path);
        // Next's client runtime ran (it sets window.next once it boots).
        await page.waitForFunction(() => !!(window as unknown as { next?: unknown }).next);
      }
      expect(problems).toEqual([]);
    });
  }
});

test("the health endpoint tells signed-out callers only the status", async ({ page }) => {
  const anon = (await (await bare.get("/api/health")).json()) as Record<string, unknown>;
  expect(anon).toEqual({ ok: true, database: { reachable: true }, migrations: { applied: expect.any(Number), pending: 0 } });
  await signInAs(page, "PI");
  const signedIn = (await (await page.request.get("/api/health")).json()) as Record<string, unknown>;
  expect(signedIn.version).toEqual(expect.any(String));
});
