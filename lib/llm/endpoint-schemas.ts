// Input schemas for model endpoints, shared by the admin page's server actions and the CLI.
// Pure (no I/O): forms may import the limits.
import { z } from "zod";
import { TOKEN_PARAMS } from "./types";

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// An endpoint's key is sent as a Bearer token to whatever URL the endpoint names, so the
// variable it is read from must be one meant for that: LLM_KEY_<anything>, or OPENAI_API_KEY
// (the name every OpenAI example uses). Anything else — above all the app's own secrets — is
// refused, and the page does not say whether such a variable is set.
const API_KEY_ENV_PREFIX = "LLM_KEY_";
const API_KEY_ENV_NAMES = ["OPENAI_API_KEY"] as const;
/** Variables the app itself reads for secrets or connections; named so the message can say why. */
const APP_SECRET_ENV_NAMES = [
  "NEXTAUTH_SECRET",
  "AUTH_SECRET",
  "DATABASE_URL",
  "TEST_DATABASE_URL",
  "DIRECT_URL",
  "PGPASSWORD",
  "NEXTAUTH_URL",
] as const;

/** Why `name` may not hold an endpoint's API key, or null when it may. */
export function apiKeyEnvProblem(name: string): string | null {
  const upper = name.toUpperCase();
  if ((APP_SECRET_ENV_NAMES as readonly string[]).includes(upper)) {
    return `${name} is one of the app's own secrets and is never sent to a model endpoint. Put the key in a variable named ${API_KEY_ENV_PREFIX}… (e.g. ${API_KEY_ENV_PREFIX}OPENROUTER) or OPENAI_API_KEY.`;
  }
  if ((API_KEY_ENV_NAMES as readonly string[]).includes(name)) return null;
  if (name.startsWith(API_KEY_ENV_PREFIX) && name.length > API_KEY_ENV_PREFIX.length) return null;
  return `Only variables named ${API_KEY_ENV_PREFIX}… (e.g. ${API_KEY_ENV_PREFIX}OPENROUTER) or OPENAI_API_KEY may hold an endpoint's key, so no other server setting can be sent to a model's URL.`;
}

const apiKeyEnvSchema = z
  .string()
  .trim()
  .max(120)
  .transform((s) => (s === "" ? null : s))
  .refine((s) => s === null || !/^(sk-|sk_|Bearer\s)/i.test(s), {
    message: "This looks like an API key. Enter the NAME of the environment variable that holds it (e.g. OPENAI_API_KEY), never the key itself.",
    abort: true,
  })
  .refine((s) => s === null || ENV_VAR_NAME.test(s), {
    message: "Use an environment variable name: letters, digits and _, not starting with a digit (e.g. OPENAI_API_KEY).",
    abort: true,
  })
  .superRefine((s, ctx) => {
    const problem = s === null ? null : apiKeyEnvProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .nullable()
  .optional()
  .transform((s) => s ?? null);

const endpointInputSchema = z.object({
  name: z.string().trim().min(1, { message: "Enter a name." }).max(80, { message: "Use at most 80 characters." }),
  baseUrl: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, message: "Enter an http:// or https:// URL, e.g. https://api.openai.com/v1." }))
    .transform((s) => s.replace(/\/+$/, "")),
  model: z.string().trim().min(1, { message: "Enter the model id the server expects (e.g. gpt-4o-mini)." }).max(200),
  apiKeyEnv: apiKeyEnvSchema,
  temperature: z.coerce.number().min(0, { message: "At least 0." }).max(2, { message: "At most 2." }),
  maxTokens: z.coerce.number().int({ message: "A whole number." }).min(1, { message: "At least 1." }).max(1_000_000),
  tokenParam: z.enum(TOKEN_PARAMS, { message: "Choose max_tokens or max_completion_tokens." }).default("max_tokens"),
  timeoutMs: z.coerce.number().int({ message: "A whole number." }).min(100, { message: "At least 100 ms." }).max(3_600_000, { message: "At most one hour." }),
  maxConcurrency: z.coerce.number().int({ message: "A whole number." }).min(1, { message: "At least 1." }).max(1000),
  priceInputPer1k: z.coerce.number().min(0, { message: "Not negative." }).max(1000),
  priceOutputPer1k: z.coerce.number().min(0, { message: "Not negative." }).max(1000),
  cacheEnabled: z.boolean(),
});
export type EndpointInput = z.infer<typeof endpointInputSchema>;

export const createEndpointSchema = endpointInputSchema;
export const updateEndpointSchema = endpointInputSchema.extend({ id: z.string().min(1) });
export const endpointIdSchema = z.object({ id: z.string().min(1) });
export const setCacheSchema = z.object({ id: z.string().min(1), cacheEnabled: z.boolean() });

/**
 * Max tokens of a new endpoint: room for thinking models. The recorded ToolEmu emulator outputs
 * (Qwen3-8B, thinking) run to 9,675 characters, about 2,400 tokens; 1,024 would cut 190 of the 201
 * non-empty ones.
 */
export const DEFAULT_MAX_TOKENS = 8192;

/** The form's starting values: temperature 0, so the cache is on. */
export const ENDPOINT_DEFAULTS = {
  temperature: 0,
  maxTokens: DEFAULT_MAX_TOKENS,
  tokenParam: "max_tokens",
  timeoutMs: 60_000,
  maxConcurrency: 4,
  priceInputPer1k: 0,
  priceOutputPer1k: 0,
} as const;
