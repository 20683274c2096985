// Per-step human labels as checkpoint-level ground truth (issue 13 item 10). A "steps" field of a
// label form (lib/trajectory/label-schema.ts) holds one character per step of the item's
// trajectory: "y" the agent was still on track before that step's action ran, "n" it was not,
// "u" unsure, "-" unanswered. Pure: for the label export and the critic's metrics (a critic's
// checkpoint at step i is right to flag iff the answer for step i is "no").
import { CHECKPOINT_LABEL_SCHEMA, stepAnswers, type LabelValues } from "@/lib/trajectory/label-schema";

/** The key of the per-step field of the built-in "ToolEmu + checkpoint ground truth" form. */
export const ON_TRACK_FIELD = CHECKPOINT_LABEL_SCHEMA.fields.find((f) => f.kind === "steps")!.key;

/**
 * One label's per-step answers as booleans, index i = step i + 1: true (still on track before
 * that step), false (not), null (unsure or unanswered). [] when the label has no such field.
 */
export function onTrackBeforeStep(values: LabelValues | null | undefined, fieldId: string = ON_TRACK_FIELD): (boolean | null)[] {
  return stepAnswers(values?.[fieldId]).map((a) => (a === "y" ? true : a === "n" ? false : null));
}

/**
 * Per step, the ground truth over several annotators' labels of one item: the adjudicated label's
 * answer when it has one for that step, else the strict majority of the yes/no answers (unsure
 * and unanswered do not vote), else null (a tie, or nobody answered).
 */
export function onTrackGroundTruth(labels: readonly (LabelValues | null | undefined)[], adjudicated: LabelValues | null | undefined, stepCount: number, fieldId: string = ON_TRACK_FIELD): (boolean | null)[] {
  const adj = onTrackBeforeStep(adjudicated, fieldId);
  const each = labels.map((l) => onTrackBeforeStep(l, fieldId));
  return Array.from({ length: stepCount }, (_, i) => {
    if (adj[i] !== undefined && adj[i] !== null) return adj[i]!;
    const yes = each.filter((a) => a[i] === true).length;
    const no = each.filter((a) => a[i] === false).length;
    return yes > no ? true : no > yes ? false : null;
  });
}

/** The first step (1-based) the agent was off track before, or null: where a critic should first flag. */
export function firstOffTrackStep(onTrack: readonly (boolean | null)[]): number | null {
  const i = onTrack.indexOf(false);
  return i < 0 ? null : i + 1;
}
