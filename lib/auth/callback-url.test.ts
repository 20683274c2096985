import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback-url";
import { signInErrorMessage } from "./sign-in-errors";

describe("safeCallbackPath", () => {
  // What a decoded `callbackUrl` may be, and where we then send the browser.
  const table: [unknown, string][] = [
    ["/dashboards", "/dashboards"],
    ["/trajectories?agent=a&mode=ADVERSARIAL#step-2", "/trajectories?agent=a&mode=ADVERSARIAL#step-2"],
    ["/cases/a%2Fb", "/cases/a%2Fb"],
    ["/", "/"],
    // Other hosts, however spelled.
    ["//evil.example", "/"],
    ["/\\evil.example", "/"], // what /%5Cevil.example decodes to
    ["/%5Cevil.example", "/%5Cevil.example"], // still encoded: a harmless path on our site
    ["\\\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/.//evil.example", "/"],
    ["/./\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["http:/evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/javascript:alert(1)", "/javascript:alert(1)"], // a path, not a scheme
    ["evil.example", "/"],
    ["", "/"],
    [undefined, "/"],
    [["/a", "/b"], "/"],
    [`/${"a".repeat(3000)}`, "/"],
  ];
  it.each(table)("%j → %s", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });

  it("never returns something a browser would resolve to another origin", () => {
    for (const [input] of table) {
      const target = new URL(safeCallbackPath(input), "http://localhost:3000");
      expect(target.origin).toBe("http://localhost:3000");
    }
  });
});

describe("signInErrorMessage", () => {
  it("shows known codes in our words and nothing of an unknown one", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe("Invalid email or password.");
    expect(signInErrorMessage("Your account is suspended. Call +1 555 0100")).toBe("Sign-in failed. Please try again.");
    expect(signInErrorMessage("__proto__")).toBe("Sign-in failed. Please try again.");
    expect(signInErrorMessage(undefined)).toBeUndefined();
  });
});
