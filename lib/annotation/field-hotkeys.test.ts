// Per-field hotkeys (issue 18 item 4): every answerable field of any form gets keys of its own.
import { describe, expect, it } from "vitest";
import { CHECKPOINT_LABEL_SCHEMA, TOOLEMU_LABEL_SCHEMA } from "@/lib/trajectory/label-schema";
import { answerKeys, assignHotkeys, baseKey, describeHotkeys, describeHotkeysForSpeech, isPrefix, keyRange, optionKeyLabel, resolveHotkey, type HotkeyField } from "./field-hotkeys";

const scopes = (fields: readonly HotkeyField[]) => Object.fromEntries([...assignHotkeys(fields).values()].map((h) => [h.field, describeHotkeys(h)]));

describe("field hotkeys", () => {
  it("give the ToolEmu form safety 0–3, helpfulness ⇧0–3, a letter per emulator aspect and y / n for true failure", () => {
    expect(scopes(TOOLEMU_LABEL_SCHEMA.fields)).toEqual({
      safety: "0–3",
      helpfulness: "⇧ 0–3",
      emulator_input_validation: "v then 0–2",
      emulator_realism: "r then 0–2",
      emulator_consistency: "i then 0–2",
      true_failure: "y / n",
    });
    // The per-step field and the comment answer keys only while focused.
    expect(scopes(CHECKPOINT_LABEL_SCHEMA.fields)).not.toHaveProperty("on_track_before_step");
    expect(scopes(CHECKPOINT_LABEL_SCHEMA.fields)).not.toHaveProperty("comment");
  });

  it("resolve a press to one field: plain, shifted, after a prefix; nothing for keys no field owns", () => {
    const map = assignHotkeys(TOOLEMU_LABEL_SCHEMA.fields);
    expect(resolveHotkey(map, { key: "3", shift: false, prefix: null })).toEqual({ field: "safety", key: "3" });
    expect(resolveHotkey(map, { key: "3", shift: true, prefix: null })).toEqual({ field: "helpfulness", key: "3" });
    expect(resolveHotkey(map, { key: "2", shift: false, prefix: "v" })).toEqual({ field: "emulator_input_validation", key: "2" });
    expect(resolveHotkey(map, { key: "1", shift: false, prefix: "i" })).toEqual({ field: "emulator_consistency", key: "1" });
    expect(resolveHotkey(map, { key: "n", shift: false, prefix: null })).toEqual({ field: "true_failure", key: "n" });
    expect(resolveHotkey(map, { key: "3", shift: false, prefix: "v" })).toBeNull(); // the aspects go 0–2
    expect(resolveHotkey(map, { key: "7", shift: false, prefix: null })).toBeNull();
    expect(isPrefix(map, "r")).toBe(true);
    expect(isPrefix(map, "c")).toBe(false);
  });

  it("never hand out the screen's own keys, and honour a field's chosen prefix", () => {
    const fields: HotkeyField[] = [
      { key: "a", kind: "scale", label: "A", min: 1, max: 5 },
      { key: "b", kind: "scale", label: "B", min: 1, max: 5 },
      // Its label's letters are all taken or reserved (c, t, f, o, s, n, u): the key's, then a–z.
      { key: "x", kind: "scale", label: "Cost of font", min: 0, max: 2 },
      { key: "d", kind: "choice", label: "Context", options: [{ key: "c" }, { key: "1" }] },
      { key: "e", kind: "choice", label: "Explicit", hotkey: "q", options: [{ key: "1" }] },
      { key: "m", kind: "multi", label: "Tags", options: [{ key: "7" }, {}, { key: "8" }] },
    ];
    const map = assignHotkeys(fields);
    expect(scopes(fields)).toEqual({ a: "1–5", b: "⇧ 1–5", x: "x then 0–2", d: "e then c / 1", e: "q then 1", m: "7 / 8" });
    for (const h of map.values()) if (h.scope.type === "prefix") expect(["c", "t", "f", "o", "[", "]", "g", "s", "p", "?", "y", "n", "u"]).not.toContain(h.scope.letter);
  });

  it("read the answer keys of every kind: options, scales, yes / no; none for text and per-step kinds", () => {
    expect(answerKeys({ key: "s", kind: "scale", label: "S", min: 1, max: 5 })).toEqual(["1", "2", "3", "4", "5"]);
    expect(answerKeys({ key: "b", kind: "boolean", label: "B" })).toEqual(["y", "n"]);
    expect(answerKeys({ key: "c", kind: "choice", label: "C", options: [{ key: "1" }, { key: "1" }, { key: "0" }] })).toEqual(["1", "0"]);
    expect(answerKeys({ key: "r", kind: "step_rating", label: "R", min: 1, max: 5 })).toEqual([]);
    expect(answerKeys({ key: "t", kind: "text", label: "T" })).toEqual([]);
  });

  it("show keys as the page reads them, and read Shift+digit by the key's position", () => {
    const map = assignHotkeys(TOOLEMU_LABEL_SCHEMA.fields);
    expect(describeHotkeysForSpeech(map.get("helpfulness")!)).toBe("Shift+0 to 3");
    expect(describeHotkeysForSpeech(map.get("emulator_realism")!)).toBe("r, then 0 to 2");
    expect(optionKeyLabel(map.get("helpfulness"), "2")).toBe("⇧2");
    expect(optionKeyLabel(map.get("emulator_realism"), "2")).toBe("r 2");
    expect(optionKeyLabel(map.get("safety"), "2")).toBe("2");
    expect(keyRange(["3", "2", "1", "0"])).toBe("0–3");
    expect(keyRange(["1", "3"])).toBe("1 / 3");
    expect(baseKey({ key: "#", code: "Digit3" })).toBe("3");
    expect(baseKey({ key: "Y", code: "KeyY" })).toBe("y");
    expect(baseKey({ key: "Enter", code: "Enter" })).toBe("Enter");
  });
});
