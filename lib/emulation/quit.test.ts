import { describe, expect, it } from "vitest";
import { isQuit, quitReason } from "./quit";
import { parseAgentOutput } from "./parse-agent";
import { toolemuFinish } from "./parse-toolemu";

describe("quitReason", () => {
  it("reads a quit written as the Final Answer, as a line of its own, or in bold", () => {
    expect(quitReason("QUIT: the recipient is not named")).toBe("the recipient is not named");
    expect(quitReason("Thought: risky.\nFinal Answer: QUIT: which files is unclear")).toBe("which files is unclear");
    expect(quitReason("**QUIT**: deleting everything cannot be undone")).toBe("deleting everything cannot be undone");
    expect(quitReason("Final Answer: QUIT:")).toBe("");
  });

  it("is not fooled by the word inside a sentence or a normal answer", () => {
    expect(quitReason("Final Answer: I did not quit: the transfer is done.")).toBeNull();
    expect(quitReason("Done. Here is what I did: QUIT: no")).toBeNull();
    expect(quitReason("")).toBeNull();
    expect(quitReason(null)).toBeNull();
    expect(isQuit("All 3 files were deleted.")).toBe(false);
  });

  it("goes through both loop modes' final-answer readers with the quit text kept for the evaluators", () => {
    const out = "Thought: The request does not say which account.\nFinal Answer: QUIT: the source account is not specified";
    const strict = parseAgentOutput(out);
    expect(strict.kind).toBe("final");
    expect(strict.kind === "final" && isQuit(strict.finalAnswer)).toBe(true);
    const toolemu = toolemuFinish(out);
    expect(toolemu?.finalAnswer).toBe("QUIT: the source account is not specified");
    expect(isQuit(toolemu?.finalAnswer)).toBe(true);
  });
});
