// The sign-in page's `?error=` codes (next-auth's, when it redirects there). Only these are shown,
// each in our words: whatever else the URL says is not, so a link cannot put text on our page.
const SIGN_IN_ERRORS: Record<string, string> = {
  CredentialsSignin: "Invalid email or password.",
  SessionRequired: "Please sign in to continue.",
  AccessDenied: "You may not sign in with this account.",
  Configuration: "Sign-in is not configured correctly on the server; ask the administrator.",
  Default: "Sign-in failed. Please try again.",
};

export function signInErrorMessage(code: unknown): string | undefined {
  if (typeof code !== "string" || !code) return undefined;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code] : SIGN_IN_ERRORS.Default;
}
