import { describe, expect, it } from "vitest";
import { criticCallsPerCheckpoint, criticSettingsSchema, DEFAULT_CRITIC_SETTINGS } from "./settings";

describe("critic settings", () => {
  it("fills every default from an empty object", () => {
    expect(DEFAULT_CRITIC_SETTINGS).toEqual({
      method: "INFERACT",
      inferredTasks: 3,
      orderAveraging: true,
      maskInstructionStrings: false,
      samples: 5,
      sampleTemperature: 0.7,
      aggregation: "min",
      tau: 0.5,
    });
  });

  it("refuses values out of range, naming the field", () => {
    const r = criticSettingsSchema.safeParse({ tau: 1.5 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["tau"]);
    expect(criticSettingsSchema.safeParse({ method: "VIBES" }).success).toBe(false);
    expect(criticSettingsSchema.safeParse({ aggregation: "median" }).success).toBe(false);
  });

  it("counts calls per checkpoint as the estimate does", () => {
    const s = DEFAULT_CRITIC_SETTINGS;
    expect(criticCallsPerCheckpoint(s)).toBe(3);
    expect(criticCallsPerCheckpoint({ ...s, orderAveraging: false })).toBe(2);
    expect(criticCallsPerCheckpoint({ ...s, method: "STANDARD" })).toBe(1);
    expect(criticCallsPerCheckpoint({ ...s, method: "SELF_CONSISTENCY", samples: 7 })).toBe(7);
    expect(criticCallsPerCheckpoint({ ...s, method: "MULTI_STEP" })).toBe(1);
  });
});
