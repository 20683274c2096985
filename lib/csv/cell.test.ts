// The shared CSV cell: RFC 4180 quoting and the formula-injection guard every CSV writer uses.
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./cell";

describe("csvCell", () => {
  it("quotes per RFC 4180 only when needed", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect([csvCell(""), csvCell(null), csvCell(undefined), csvCell(0), csvCell(false)]).toEqual(["", "", "", "0", "false"]);
    expect(csvLine(["a", 1, null, 'x"y'])).toBe('a,1,,"x""y"\r\n');
  });

  it("prefixes a leading = + - @ TAB or CR with an apostrophe, and only a leading one", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=cmd|' /C calc'!A0")).toBe("'\t=cmd|' /C calc'!A0");
    expect(csvCell("\r=1+1")).toBe("\"'\r=1+1\""); // CR also forces quoting
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell("a=b, c-d")).toBe('"a=b, c-d"');
    expect(csvCell(-1)).toBe("-1"); // numbers stay numbers
  });
});
