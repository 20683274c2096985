// The address a sign-in attempt came from, for the per-address throttle. Next.js fills
// X-Forwarded-For from the socket when the request has none, and a reverse proxy in front
// appends the address it saw, so the last entry is the nearest hop we can name. A client talking
// to Next directly can send its own header and so choose its address: the per-email lock-out
// stays the limit that cannot be sidestepped.
export function clientAddress(headers: Record<string, unknown> | Headers | undefined | null): string | null {
  if (!headers) return null;
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : typeof raw === "string" ? raw : null;
  const last = value?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  // IPv4-mapped IPv6 and plain IPv4 count as one address.
  return last ? last.replace(/^::ffff:/i, "").slice(0, 64) : null;
}
