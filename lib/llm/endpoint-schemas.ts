// Input schemas for model endpoints, shared by the admin page's server actions and the CLI.
// Pure (no I/O): forms may import the limits.
import { z } from "zod";

export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
  })
  .nullable()
  .optional()
  .transform((s) => s ?? null);

export const endpointInputSchema = z.object({
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

/** The form's starting values: temperature 0, so the cache is on. */
export const ENDPOINT_DEFAULTS = {
  temperature: 0,
  maxTokens: 1024,
  timeoutMs: 60_000,
  maxConcurrency: 4,
  priceInputPer1k: 0,
  priceOutputPer1k: 0,
} as const;
