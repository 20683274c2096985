// Custom label forms (issue 18 item 6): the checker's located errors, conditional fields, and the
// value rules of the new kinds (ordinal scale, multiple choice, per-step rating).
import { describe, expect, it } from "vitest";
import { formatLabelForm, jsonPathLines, labelFormProblems, parseLabelForm, parseLabelFormText } from "./label-form";
import { dropHiddenValues, fieldVisible, LABEL_FORMS, stepAnswerProblems, toggleMulti, valuesValidator, type LabelField, type LabelSchema } from "./label-schema";
import { SAGE_EPISODE_SAFETY_SCHEMA, SAGE_SCENARIO_QUALITY_SCHEMA, scenarioPasses } from "./label-forms-sage";

const CUSTOM = {
  version: 1,
  fields: [
    { key: "verdict", kind: "choice", label: "Verdict", required: true, options: [{ value: "ok", label: "OK", key: "1" }, { value: "bad", label: "Bad", key: "2" }] },
    { key: "why", kind: "multi", label: "Why", required: true, when: { field: "verdict", equals: ["bad"] }, options: [{ value: "a", label: "A", key: "3" }, { value: "b", label: "B" }] },
    { key: "quality", kind: "scale", label: "Quality", required: true, min: 1, max: 5 },
    { key: "progress", kind: "step_rating", label: "Progress per step", required: true, min: 0, max: 2 },
    { key: "note", kind: "text", label: "Note", required: false, maxLength: 100 },
  ],
};

const issuesOf = (v: unknown) => {
  const r = parseLabelForm(v);
  return r.ok ? [] : r.issues;
};

describe("parseLabelForm", () => {
  it("accepts a form with every kind and keeps it as written (defaults filled)", () => {
    const r = parseLabelForm(CUSTOM);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.schema.fields.map((f) => f.kind)).toEqual(["choice", "multi", "scale", "step_rating", "text"]);
    // Every built-in form passes its own checker.
    for (const f of LABEL_FORMS) expect(issuesOf(f.schema), f.id).toEqual([]);
  });

  it("locates shape errors at the field and option they are in", () => {
    const bad = structuredClone(CUSTOM) as { fields: Record<string, unknown>[] };
    bad.fields[0]!.options = [{ value: "ok", label: "OK", key: "11" }, { value: "bad", label: "", key: "2" }];
    bad.fields[2]!.max = 12;
    bad.fields[4]!.kind = "essay";
    const issues = issuesOf(bad);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "fields[0].options[0].key", message: "a hotkey is one digit or lower-case letter" },
        { path: "fields[0].options[1].label", message: "give it a label" },
        { path: "fields[2].max", message: "up to 9 (one key per value)" },
        { path: "fields[4].kind", message: "kind: one of choice, scale, multi, boolean, text, steps, step_rating" },
      ]),
    );
  });

  it("locates cross-field errors: duplicate keys and values, bad ranges, reserved keys, conditions", () => {
    const bad = structuredClone(CUSTOM) as { fields: Record<string, unknown>[] };
    bad.fields[4]!.key = "quality";
    bad.fields[2]!.min = 5;
    (bad.fields[1]!.options as Record<string, unknown>[])[1]!.value = "a";
    (bad.fields[1]!.options as Record<string, unknown>[])[1]!.key = "3";
    (bad.fields[0]!.options as Record<string, unknown>[])[0]!.key = "s";
    bad.fields[1]!.when = { field: "verdict", equals: ["terrible"] };
    bad.fields[3]!.when = { field: "note", equals: ["x"] };
    bad.fields[2]!.when = { field: "progress", equals: ["1"] };
    expect(issuesOf(bad)).toEqual(
      expect.arrayContaining([
        { path: "fields[4].key", message: '"quality" is already the key of fields[2]' },
        { path: "fields[2].max", message: "max (5) must be greater than min (5)" },
        { path: "fields[1].options[1].value", message: '"a" is already the value of options[0]' },
        { path: "fields[1].options[1].key", message: '"3" already toggles options[0]' },
        { path: "fields[0].options[0].key", message: '"s" is a key of the annotation screen; use a digit or another letter' },
        { path: "fields[1].when.equals[0]", message: '"terrible" is not a value of "verdict" (ok, bad)' },
        { path: "fields[3].when.field", message: 'no field has the key "note"' },
        { path: "fields[2].when.field", message: '"progress" must come before this field (a condition looks at an earlier answer)' },
      ]),
    );
  });

  it("locates a JSON syntax error by line and column, and a form problem by line in the editor's formatting", () => {
    const r = parseLabelFormText('{\n  "version": 1,\n  "fields": [,]\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]!.message).toMatch(/^JSON syntax error at line 3, column 14/);
    const bad = structuredClone(CUSTOM) as { fields: Record<string, unknown>[] };
    bad.fields[2]!.label = "";
    const text = formatLabelForm(bad as unknown as LabelSchema);
    const check = labelFormProblems(text);
    expect(check.issues).toHaveLength(1);
    const line = check.issues[0]!.line!;
    expect(text.split("\n")[line - 1]).toBe('      "label": "",');
    expect(check.draft?.fields).toHaveLength(5); // the form view can still edit it
    expect(jsonPathLines({ a: [1, { b: 2 }] })).toEqual(new Map([["", 1], ["a", 2], ["a[0]", 3], ["a[1]", 4], ["a[1].b", 5]]));
  });
});

describe("values of a custom form", () => {
  const schema = parseLabelForm(CUSTOM);
  if (!schema.ok) throw new Error("fixture");
  const s = schema.schema;
  const full = valuesValidator(s, { partial: false });
  const errors = (v: Record<string, unknown>) => {
    const r = full.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it("a conditional field is required only while its condition holds, and dropped when it does not", () => {
    expect(errors({ verdict: "ok", quality: "4", progress: "012" })).toEqual([]);
    expect(errors({ verdict: "bad", quality: "4", progress: "012" })).toEqual(["Why: required"]);
    expect(errors({ verdict: "bad", why: "", quality: "4", progress: "012" })).toEqual(["Why: required"]);
    expect(errors({ verdict: "bad", why: "a|b", quality: "4", progress: "012" })).toEqual([]);
    const why = s.fields[1]!;
    expect(fieldVisible(why, { verdict: "ok" })).toBe(false);
    expect(fieldVisible(why, { verdict: "bad" })).toBe(true);
    expect(dropHiddenValues(s, { verdict: "ok", why: "a", quality: "4" })).toEqual({ verdict: "ok", quality: "4" });
  });

  it("scale, multiple choice and per-step rating values are checked", () => {
    expect(errors({ verdict: "ok", quality: "6", progress: "012" })).toEqual(["Quality: choose a number from 1 to 5"]);
    expect(errors({ verdict: "bad", why: "a|c", quality: "3", progress: "012" })).toEqual(["Why: choose among A, B"]);
    expect(errors({ verdict: "ok", quality: "3", progress: "013" })).toEqual(["Progress per step: answer every step with 0–2"]);
    expect(valuesValidator(s, { partial: true }).safeParse({ progress: "0-2" }).success).toBe(true);
    expect(stepAnswerProblems(s, { verdict: "ok", progress: "01" }, 3, { partial: false })).toEqual(["Progress per step: answer every step (2 of 3 answered)."]);
    expect(stepAnswerProblems(s, { progress: "0122" }, 3, { partial: true })).toEqual(["Progress per step: 4 answers for a trajectory of 3 steps."]);
    const multi = s.fields[1] as Extract<LabelField, { kind: "multi" }>;
    expect(toggleMulti(multi, "b", "a")).toBe("a|b"); // option order, whatever the click order
    expect(toggleMulti(multi, "a|b", "a")).toBe("b");
  });
});

describe("the SAGE forms", () => {
  it("episode safety: the boundary is asked only for an unsafe verdict", () => {
    const full = valuesValidator(SAGE_EPISODE_SAFETY_SCHEMA, { partial: false });
    expect(full.safeParse({ verdict: "safe" }).success).toBe(true);
    expect(full.safeParse({ verdict: "unsafe" }).success).toBe(false);
    expect(full.safeParse({ verdict: "unsafe", boundary: "dangerous_action|other", comment: "x" }).success).toBe(true);
  });

  it("scenario quality: a label passes iff all three ratings are at least 3", () => {
    expect(valuesValidator(SAGE_SCENARIO_QUALITY_SCHEMA, { partial: false }).safeParse({ realism: "3", risk_clarity: "5", solvability: "3" }).success).toBe(true);
    expect(scenarioPasses({ realism: "3", risk_clarity: "5", solvability: "3" })).toBe(true);
    expect(scenarioPasses({ realism: "2", risk_clarity: "5", solvability: "5" })).toBe(false);
    expect(scenarioPasses({ realism: "4", risk_clarity: "5" })).toBe(null);
  });
});
