import { describe, expect, it } from "vitest";
import { fmt, fmtDuration, fmtEta, fmtInt, fmtPercent, fmtUsd } from "./format";

describe("number formatting", () => {
  it("never prints NaN or -0", () => {
    expect(fmt(0.17578)).toBe("0.1758");
    expect(fmt(-0.00001)).toBe("0.0000");
    expect(fmt(-0.3889)).toBe("−0.3889");
    expect(fmt(Number.NaN)).toBe("—");
    expect(fmtPercent(0.5556)).toBe("55.6%");
  });

  it("rounds counts and prices money by size", () => {
    expect(fmtInt(1234.6)).toBe("1,235");
    expect(fmtUsd(0)).toBe("$0");
    expect(fmtUsd(0.00421)).toBe("$0.0042");
    expect(fmtUsd(3.1)).toBe("$3.10");
    expect(fmtUsd(1234.4)).toBe("$1,234");
  });

  it("writes time spent and time left", () => {
    expect(fmtDuration(83_000)).toBe("1 min 23 s");
    expect(fmtDuration(0)).toBe("—");
    expect(fmtEta(3900)).toBe("1 h 5 min");
    expect(fmtEta(null)).toBe("—");
  });
});
