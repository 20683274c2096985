// Inputs of the editor's server actions (the spec itself is validated by ./validate.ts, which
// names the field; zod here only shapes the envelope).
import { z } from "zod";

const note = z.string().trim().max(500, { error: "at most 500 characters" }).optional();

export const createSpecInput = z.object({ spec: z.unknown(), note });
export const updateSpecInput = z.object({ id: z.string().min(1), spec: z.unknown(), expectedVersion: z.number().int().min(1), note });

export type SaveResult = { saved: true; name: string; version: number } | { saved: false; issues: { path: string; message: string }[] };
