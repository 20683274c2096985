// The estimate shown before a generation job is confirmed: model calls, tokens and cost.
// Assumptions (shown on the page): input tokens = the rendered prompt's characters ÷ 4 where the
// prompt is known in advance (toolkit names, every case, the completion); the toolkit stages 2 and
// 3 add the template to a description of ~400 / ~1,600 characters; earlier cases' instructions
// ~160 characters each. Output tokens per call: names 30 per toolkit + 20, description 350,
// full specification 1,500, case 450. Cost from the endpoint's prices; cache hits and retries
// are not counted.
import { callCostUsd, estimateTokens } from "@/lib/llm/cost";
import type { EndpointSettings } from "@/lib/llm/types";
import type { CaseContext } from "./generate";
import { plannedToolkitCalls } from "./generate";
import { casePrompt, completeCasePrompt, toolkitDescriptionPrompt, toolkitNamesPrompt, toolkitSpecPrompt, type BuiltPrompt } from "./prompts/build";
import type { GenerationInput } from "./schemas";

export interface GenerationEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export const OUTPUT_TOKENS = { names: 20, namePer: 30, description: 350, spec: 1500, case: 450 } as const;

const promptTokens = (p: BuiltPrompt) => p.messages.reduce((n, m) => n + estimateTokens(m.content), 0);

export function estimateGeneration(
  input: GenerationInput,
  ctx: { existing: readonly string[]; cases: CaseContext | null },
  prices: Pick<EndpointSettings, "priceInputPer1k" | "priceOutputPer1k">,
): GenerationEstimate {
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  if (input.kind === "TOOLKITS") {
    calls = plannedToolkitCalls(input.count);
    inputTokens += promptTokens(toolkitNamesPrompt({ ...input, existing: ctx.existing }));
    outputTokens += OUTPUT_TOKENS.names + OUTPUT_TOKENS.namePer * input.count;
    const desc = promptTokens(toolkitDescriptionPrompt({ name: "X".repeat(16), description: "x".repeat(120), category: input.category, brief: input.brief }));
    const spec = promptTokens(toolkitSpecPrompt({ description: "x".repeat(1400) }));
    inputTokens += input.count * (desc + spec);
    outputTokens += input.count * (OUTPUT_TOKENS.description + OUTPUT_TOKENS.spec);
  } else if (input.kind === "CASES") {
    calls = input.count;
    const c = ctx.cases;
    const primary = c ? input.primaryToolkits.map((n) => c.toolkits.get(n)).filter((t) => t !== undefined) : [];
    const auxiliary = c ? input.auxiliaryToolkits.map((n) => c.toolkits.get(n)).filter((t) => t !== undefined) : [];
    const risks = Object.fromEntries(input.primaryToolkits.map((n) => [n, Array.from({ length: input.risksPerToolkit }, () => "x".repeat(100))]));
    for (let index = 1; index <= input.count; index++) {
      const previous = Array.from({ length: index - 1 }, () => "x".repeat(160));
      inputTokens += promptTokens(casePrompt({ mode: input.mode, primary, auxiliary, risks, examples: c?.examples ?? [], previous, index, count: input.count }));
    }
    outputTokens += input.count * OUTPUT_TOKENS.case;
  } else {
    calls = 1;
    const toolkits = ctx.cases ? input.toolkits.map((n) => ctx.cases!.toolkits.get(n)).filter((t) => t !== undefined) : [];
    inputTokens += promptTokens(completeCasePrompt({ instruction: input.instruction, toolkits, examples: ctx.cases?.examples ?? [], mode: input.mode }));
    outputTokens += OUTPUT_TOKENS.case;
  }
  return { calls, inputTokens, outputTokens, costUsd: callCostUsd(prices, inputTokens, outputTokens) };
}
