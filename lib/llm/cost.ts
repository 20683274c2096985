// Token and cost arithmetic, shared by the client (accounting) and the offline model (usage).
import type { EndpointSettings } from "./types";

/** A deterministic token estimate: one token per four characters, rounded up (0 for ""). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** USD for one call at the endpoint's prices per 1,000 input and output tokens (rounded to 1e-9). */
export function callCostUsd(
  prices: Pick<EndpointSettings, "priceInputPer1k" | "priceOutputPer1k">,
  inputTokens: number,
  outputTokens: number,
): number {
  const usd = (inputTokens / 1000) * prices.priceInputPer1k + (outputTokens / 1000) * prices.priceOutputPer1k;
  return Math.round(usd * 1e9) / 1e9;
}
