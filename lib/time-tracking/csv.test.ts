import { describe, expect, test } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("csvCell", () => {
  test("plain text and numbers stay as they are", () => {
    expect(csvCell("Write report")).toBe("Write report");
    expect(csvCell(3600)).toBe("3600");
  });

  test("commas, quotes and line breaks are quoted, quotes doubled (RFC 4180)", () => {
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line 1\nline 2")).toBe('"line 1\nline 2"');
  });

  test("a cell a spreadsheet would run as a formula gets an apostrophe first", () => {
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("+420 123")).toBe("'+420 123");
    expect(csvCell("-5")).toBe("'-5");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell('=HYPERLINK("x",1)')).toBe(`"'=HYPERLINK(""x"",1)"`);
    expect(csvCell("a=b")).toBe("a=b");
  });
});

test("toCsv ends every record with CRLF", () => {
  expect(toCsv(["a", "b"], [["x", 1]])).toBe("a,b\r\nx,1\r\n");
});
