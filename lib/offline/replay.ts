// The replay "model": answers our agent, emulator and evaluator prompts with the outputs a recorded
// ToolEmu trajectory's models actually produced, so the engine can be checked against real runs.
// Not an LLM: every answer is recorded text (REPLAY_LABEL). Served by the offline model's HTTP
// server for model ids "replay:<trajectory id>" (startOfflineModel's `replay` option).
//
// Which recorded output a request gets, from the request alone (no per-episode state):
//   agent     → turn n = the number of assistant messages so far (one per earlier step);
//   emulator  → step n = the calls listed under "## Calls so far" (critique and self-critique
//               rounds of that step get the same recorded output: ToolEmu asked once);
//   evaluator → the recorded evaluation of that kind (of `evaluatorModel` when the id names one:
//               "replay:<id>:<evaluator model>").
// The recorded text is returned as it is: it already is what the original endpoint returned after
// its own stop sequences, so ours are not applied again. The agent's last turn is reported as cut
// by the token limit (finish_reason "length") when ToolEmu's final output says it was.
import type { ChatMessage } from "@/lib/llm/types";
import { parseRoleMarker } from "@/lib/prompts/template";
import { REPLAY_LABEL, REPLAY_MODEL_PREFIX, type ReplayRecording } from "@/lib/trajectory/replay";

export interface ReplayAnswer {
  content: string;
  finishReason: "stop" | "length";
}

export interface ReplayTarget {
  trajectoryId: string;
  evaluatorModel: string | null;
}

/** "replay:<trajectory id>[:<evaluator model>]" → its parts; null for any other model id. */
export function parseReplayModel(model: string): ReplayTarget | null {
  if (!model.startsWith(REPLAY_MODEL_PREFIX)) return null;
  const rest = model.slice(REPLAY_MODEL_PREFIX.length);
  const colon = rest.indexOf(":");
  const trajectoryId = colon === -1 ? rest : rest.slice(0, colon);
  if (!trajectoryId) return null;
  return { trajectoryId, evaluatorModel: colon === -1 ? null : rest.slice(colon + 1) || null };
}

const missing = (what: string): ReplayAnswer => ({ content: `[${REPLAY_LABEL}] The recording has no ${what}.`, finishReason: "stop" });

/** Calls listed in an emulator prompt's "Calls so far" section. */
function emulatorStepOf(messages: ChatMessage[]): number {
  const user = messages.find((m) => m.role === "user")?.content ?? "";
  const start = user.indexOf("## Calls so far");
  const end = user.indexOf("## Call to emulate now");
  const section = start === -1 ? user : user.slice(start, end === -1 ? undefined : end);
  return (section.match(/^Action: /gm) ?? []).length - (start === -1 ? 1 : 0);
}

export function replayRespond(messages: ChatMessage[], recording: ReplayRecording, target: ReplayTarget): ReplayAnswer {
  const system = messages.find((m) => m.role === "system");
  const firstUser = messages.find((m) => m.role === "user");
  const marker = (system && parseRoleMarker(system.content)) ?? (firstUser && parseRoleMarker(firstUser.content)) ?? null;
  switch (marker?.role) {
    case "agent": {
      const turn = messages.filter((m) => m.role === "assistant").length;
      const text = recording.agentOutputs[turn];
      if (text === undefined) return missing(`agent output for turn ${turn + 1} (it has ${recording.agentOutputs.length})`);
      const last = turn === recording.agentOutputs.length - 1;
      return { content: text, finishReason: last && recording.finalCutByTokenLimit ? "length" : "stop" };
    }
    case "emulator":
    case "critique": {
      const step = emulatorStepOf(messages);
      const text = recording.emulatorOutputs[step];
      return text === undefined ? missing(`emulator output for step ${step + 1} (it has ${recording.emulatorOutputs.length})`) : { content: text, finishReason: "stop" };
    }
    case "evaluator": {
      const kind = marker.templateId.includes("safety") ? "SAFETY" : "HELPFULNESS";
      const e = recording.evaluations.find((x) => x.kind === kind && (!target.evaluatorModel || x.evaluatorModel === target.evaluatorModel));
      return e ? { content: e.text, finishReason: "stop" } : missing(`${kind.toLowerCase()} evaluation${target.evaluatorModel ? ` by ${target.evaluatorModel}` : ""}`);
    }
    default:
      return { content: `This is the ${REPLAY_LABEL}: it answers ToolEmu Studio's agent, emulator and evaluator prompts with a recorded trajectory's outputs. OK.`, finishReason: "stop" };
  }
}
