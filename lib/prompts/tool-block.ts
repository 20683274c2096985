// The tool specifications as every prompt shows them, and the way back from the text to the specs
// (the offline model reads the tools out of the prompt it is given). One line per fact, so the
// text is both readable for a model and exactly parseable:
//
//   <tools>
//   Toolkit Todoist: Tool for managing tasks ...
//   * TodoistSearchTasks: Searches tasks by keywords, due date and priority.
//     Arguments:
//     - keywords (string, optional): The keywords to search for.
//     Returns:
//     - tasks (array): A list of objects, each containing 'task_id' ...
//     Exceptions:
//     - InvalidRequestException: The 'keywords' argument is empty.
//   </tools>
//
// A section with nothing in it reads "Arguments: none". Descriptions are kept on one line.
import type { ToolException, ToolkitSpec, ToolParameter, ToolReturn, ToolSpec } from "@/lib/trajectory/types";

const TOOLS_OPEN = "<tools>";
const TOOLS_CLOSE = "</tools>";

const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, " ").trim();

function section(title: string, lines: string[]): string[] {
  return lines.length ? [`  ${title}:`, ...lines] : [`  ${title}: none`];
}

/** One tool's description lines. */
function renderTool(tool: ToolSpec, opts: { exceptions?: boolean } = {}): string {
  const lines = [`* ${tool.agentName}: ${oneLine(tool.summary)}`];
  lines.push(...section("Arguments", tool.parameters.map((p) => `  - ${p.name} (${p.type}, ${p.required ? "required" : "optional"}): ${oneLine(p.description)}`)));
  lines.push(...section("Returns", tool.returns.map((r) => `  - ${r.name} (${r.type}): ${oneLine(r.description)}`)));
  if (opts.exceptions !== false) lines.push(...section("Exceptions", tool.exceptions.map((e) => `  - ${e.name}: ${oneLine(e.description)}`)));
  return lines.join("\n");
}

/** The whole block for a case's toolkits, between <tools> and </tools>. */
export function renderToolBlock(toolkits: ToolkitSpec[], opts: { exceptions?: boolean } = {}): string {
  const parts = [TOOLS_OPEN];
  for (const tk of toolkits) {
    parts.push(`Toolkit ${tk.nameForModel}: ${oneLine(tk.descriptionForModel)}`);
    for (const tool of tk.tools) parts.push(renderTool(tool, opts));
  }
  parts.push(TOOLS_CLOSE);
  return parts.join("\n");
}

const TOOLKIT_RE = /^Toolkit (\S+): ?(.*)$/;
const TOOL_RE = /^\* (\S+): ?(.*)$/;
const SECTION_RE = /^ {2}(Arguments|Returns|Exceptions):(?: (none))?$/;
const PARAM_RE = /^ {2}- (\S+) \((\w+), (required|optional)\): ?(.*)$/;
const RETURN_RE = /^ {2}- (\S+) \((\w+)\): ?(.*)$/;
const EXCEPTION_RE = /^ {2}- (\S+): ?(.*)$/;

/**
 * The toolkits of the first <tools> block in `text` (empty when there is none). Lines that do
 * not fit the format are skipped, never fatal.
 */
export function parseToolBlock(text: string): ToolkitSpec[] {
  const start = text.indexOf(`${TOOLS_OPEN}\n`);
  if (start < 0) return [];
  const end = text.indexOf(`\n${TOOLS_CLOSE}`, start);
  const body = text.slice(start + TOOLS_OPEN.length + 1, end < 0 ? undefined : end);
  const toolkits: ToolkitSpec[] = [];
  let toolkit: ToolkitSpec | null = null;
  let tool: ToolSpec | null = null;
  type Section = "Arguments" | "Returns" | "Exceptions";
  let current = null as Section | null;
  for (const line of body.split("\n")) {
    let m: RegExpExecArray | null;
    if ((m = TOOLKIT_RE.exec(line))) {
      toolkit = { name: m[1]!, nameForModel: m[1]!, descriptionForModel: m[2]!, tools: [] };
      toolkits.push(toolkit);
      tool = null;
      current = null;
    } else if ((m = TOOL_RE.exec(line))) {
      if (!toolkit) {
        toolkit = { name: "", nameForModel: "", descriptionForModel: "", tools: [] };
        toolkits.push(toolkit);
      }
      const agentName = m[1]!;
      const prefix = toolkit.nameForModel;
      tool = {
        agentName,
        toolkit: toolkit.name,
        name: prefix && agentName.startsWith(prefix) ? agentName.slice(prefix.length) : agentName,
        summary: m[2]!,
        parameters: [],
        returns: [],
        exceptions: [],
      };
      toolkit.tools.push(tool);
      current = null;
    } else if ((m = SECTION_RE.exec(line))) {
      current = m[1] as Section;
    } else if (tool && current === "Arguments" && (m = PARAM_RE.exec(line))) {
      const p: ToolParameter = { name: m[1]!, type: m[2]!, description: m[4]!, required: m[3] === "required" };
      tool.parameters.push(p);
    } else if (tool && current === "Returns" && (m = RETURN_RE.exec(line))) {
      const r: ToolReturn = { name: m[1]!, type: m[2]!, description: m[3]! };
      tool.returns.push(r);
    } else if (tool && current === "Exceptions" && (m = EXCEPTION_RE.exec(line))) {
      const e: ToolException = { name: m[1]!, description: m[2]! };
      tool.exceptions.push(e);
    }
  }
  return toolkits;
}

/** All tools of the first <tools> block, flat. */
export function parseTools(text: string): ToolSpec[] {
  return parseToolBlock(text).flatMap((tk) => tk.tools);
}
