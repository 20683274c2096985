// Where to send someone after signing in. Only a path on this site: anything a browser could read
// as another host is refused — `//evil`, `/\evil` and `/%5Cevil` once decoded (browsers treat `\`
// as `/`), tabs or line breaks (browsers drop them: `/\t/evil` is `//evil`), dot segments that
// normalise to `//evil`, absolute URLs and `javascript:`. Pure: the sign-in page and its tests use it.
const BASE = "http://callback.invalid";

export function safeCallbackPath(raw: unknown, fallback = "/"): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.length > 2000) return fallback;
  // Backslashes and control characters have no business in our paths; browsers reinterpret them.
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  // After normalisation (`/.//evil` → `//evil`) it must still be a plain path.
  return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}
