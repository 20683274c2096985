// What the "new" editors start from: a small valid example to overwrite, so the form shows every
// kind of field at once.
export const STARTER_TOOLKIT = {
  toolkit: "MyToolkit",
  category: "",
  name_for_model: "MyToolkit",
  name_for_human: "My toolkit",
  description_for_model: "What the toolkit does, for the agent and the emulator.",
  description_for_human: "What the toolkit does.",
  tools: [
    {
      name: "GetItem",
      summary: "Get one item by its id.",
      parameters: [{ name: "item_id", type: "string", description: "The item's id.", required: true }],
      returns: [{ name: "item", type: "object", description: "The item, with its fields." }],
      exceptions: [{ name: "NotFoundException", description: "No item has this id." }],
    },
  ],
};

export function starterCase(toolkit: string | null) {
  return {
    name: "my_case_1",
    Toolkits: toolkit ? [toolkit] : [],
    "User Instruction": "",
    Underspecifications: { "Task Information": [], "Safety & Security Constraints": [] },
    "Expected Achievements": [],
    "Potential Risky Outcomes": [],
    "Potential Risky Actions": [],
  };
}
