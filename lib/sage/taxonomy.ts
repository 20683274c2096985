// The ForesightSafety-SAGE risk taxonomy: 5 dimensions × 16 subcategories, with the ids the data
// folders use (canonical) and the other ids the files use for the same thing (aliases). English
// names as in the paper; the source files' own (Chinese) names are stored on import.
//
// How the importer maps ids (issue 14 asks that it says how):
//  - the interaction-understanding files say `interaction_understanding_distortion` where the
//    folder says `interaction_understanding_failure`: the folder's id is canonical;
//  - the side-effect seeds say `goal_norm_misalignment.negative_side_effects` (subtype
//    `negative_side_effects`) and live in `side_sffect_negligence_seeds/` (sic) while the family
//    file is `side_effect_negligence.json`: `side_effect_negligence` is canonical, the other two
//    are aliases.

export const SAGE_SOURCE = "LuJia-USTB/ForesightSafety-SAGE (commit 50bda096849b86c707f853217824f72e1adf570c)";
export const SAGE_LICENCE = "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); cite the ForesightSafety-SAGE paper (arXiv 2606.08531)";

export interface SageSubcategoryDef {
  slug: string;
  name: string;
  aliases: readonly string[];
}

export interface SageDimensionDef {
  key: string;
  name: string;
  aliases: readonly string[];
  subcategories: readonly SageSubcategoryDef[];
}

export const SAGE_TAXONOMY: readonly SageDimensionDef[] = [
  {
    key: "interaction_understanding_failure",
    name: "Interaction Understanding Failure",
    aliases: ["interaction_understanding_distortion"],
    subcategories: [
      { slug: "intent_misinterpretation", name: "Intent Misinterpretation", aliases: [] },
      { slug: "sycophantic_compliance", name: "Sycophantic Compliance", aliases: [] },
    ],
  },
  {
    key: "goal_norm_misalignment",
    name: "Goal–Norm Misalignment",
    aliases: [],
    subcategories: [
      { slug: "reward_hacking", name: "Reward Hacking", aliases: [] },
      { slug: "side_effect_negligence", name: "Negative Side Effects", aliases: ["negative_side_effects", "side_sffect_negligence"] },
      { slug: "objective_drift", name: "Objective Drift", aliases: [] },
    ],
  },
  {
    key: "robustness_generalization_failure",
    name: "Robustness and Generalization Failure",
    aliases: [],
    subcategories: [
      { slug: "adversarial_inducement_vulnerability", name: "Adversarial Inducement Vulnerability", aliases: [] },
      { slug: "misleading_context_vulnerability", name: "Misleading Context Vulnerability", aliases: [] },
      { slug: "long_horizon_task_instability", name: "Long-Horizon Task Instability", aliases: [] },
    ],
  },
  {
    key: "supervision_control_failure",
    name: "Supervision and Control Failure",
    aliases: [],
    subcategories: [
      { slug: "insufficient_oversight", name: "Insufficient Oversight", aliases: [] },
      { slug: "interruption_failure", name: "Interruption Failure", aliases: [] },
      { slug: "correction_resistance_or_delay", name: "Correction Resistance or Delay", aliases: [] },
      { slug: "audit_attribution_difficulty", name: "Audit Attribution Difficulty", aliases: [] },
    ],
  },
  {
    key: "autonomy_authority_failure",
    name: "Autonomy and Authority Failure",
    aliases: [],
    subcategories: [
      { slug: "unauthorized_decision", name: "Unauthorized Decision-Making", aliases: [] },
      { slug: "privilege_escalation", name: "Autonomous Privilege Escalation", aliases: [] },
      { slug: "dangerous_action_execution", name: "Dangerous Action Execution", aliases: [] },
      { slug: "single_agent_cascade", name: "Single-Agent Execution Cascade", aliases: [] },
    ],
  },
];

/** The canonical family id of a subcategory: `<dimension>.<subcategory>`. */
export function subcategoryKey(dimension: string, slug: string): string {
  return `${dimension}.${slug}`;
}

export interface ResolvedSubcategory {
  dimension: SageDimensionDef;
  subcategory: SageSubcategoryDef;
  key: string;
}

export function findDimension(id: string): SageDimensionDef | null {
  return SAGE_TAXONOMY.find((d) => d.key === id || d.aliases.includes(id)) ?? null;
}

/** A subcategory from a dimension id and a subcategory id, either canonical or an alias; null if unknown. */
export function findSubcategory(dimensionId: string, subtypeId: string): ResolvedSubcategory | null {
  const dimension = findDimension(dimensionId);
  if (!dimension) return null;
  const subcategory = dimension.subcategories.find((s) => s.slug === subtypeId || s.aliases.includes(subtypeId));
  return subcategory ? { dimension, subcategory, key: subcategoryKey(dimension.key, subcategory.slug) } : null;
}

/** A subcategory from a family id `<dimension>.<subtype>` (canonical or aliases). */
export function findFamily(familyId: string): ResolvedSubcategory | null {
  const dot = familyId.indexOf(".");
  return dot < 0 ? null : findSubcategory(familyId.slice(0, dot), familyId.slice(dot + 1));
}

/** The subcategory of a task folder `<subtype>_seeds` (also the misspelled `side_sffect_negligence_seeds`), if the name says. */
export function subcategoryOfFolder(dimensionFolder: string, folder: string): ResolvedSubcategory | null {
  const m = /^(.+)_seeds$/.exec(folder);
  return m ? findSubcategory(dimensionFolder, m[1]!) : null;
}

export const SAGE_SUBCATEGORY_COUNT = SAGE_TAXONOMY.reduce((n, d) => n + d.subcategories.length, 0);
