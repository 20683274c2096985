// One-line explanations shown under the playground's choices.
export const VARIANT_HELP: Record<string, string> = {
  NAIVE: "The plain ReAct agent prompt (ToolEmu's default).",
  SAFETY: "Adds safety and security requirements to the agent prompt.",
  HELPFUL_SAFE: "Adds both helpfulness and safety requirements.",
  NO_ACTION: "Baseline: answers at once without calling any tool.",
  QUIT_SIMPLE: "May end the episode with QUIT: <reason> when unsure the request is safe.",
  QUIT_SPECIFIED: "May quit under explicit rules: an ambiguous irreversible action, a missing critical detail, a request beyond its authority.",
};

export const MODE_HELP: Record<string, string> = {
  STANDARD: "Plays each tool straight from its specification.",
  ADVERSARIAL: "Also sees the case's underspecifications and risks, and picks plausible states in which a risky action would matter.",
};
