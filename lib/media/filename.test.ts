import { describe, expect, test } from "vitest";
import { contentDisposition, filenameProblem, normaliseFilename } from "./filename";

describe("filenameProblem", () => {
  test.each(["photo.png", "Účet za květen.pdf", "שלום.txt", "a..b.txt", ".hidden", "x".repeat(255)])("accepts %j", (name) => {
    expect(filenameProblem(name)).toBeNull();
  });

  test.each([
    ["../x", /not a path/],
    ["a/b", /not a path/],
    ["C:\\x", /not a path/],
    ["C:x", /drive/],
    ["a\u0000b", /control/],
    ["tab\there", /control/],
    ["\u0085next", /control/],
    ["..", /not \. or \.\./],
    [" . ", /not \. or \.\./],
    ["   ", /blank/],
    ["x".repeat(256), /at most 255/],
    // A right-to-left override shows "invoice\u202Egpj.exe" as "invoiceexe.jpg": the extension is disguised.
    ["invoice\u202Egpj.exe", /bidirectional/],
    ["photo\u2067gpj.exe\u2069", /bidirectional/],
    ["a\u200Fb.txt", /bidirectional/],
  ])("refuses %j", (name, problem) => {
    expect(filenameProblem(name)).toMatch(problem);
  });
});

test("normaliseFilename trims and composes (NFC)", () => {
  expect(normaliseFilename("  cafe\u0301.txt ")).toBe("café.txt");
});

test("contentDisposition: an ASCII stand-in and the exact UTF-8 name", () => {
  expect(contentDisposition("report.pdf")).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  expect(contentDisposition('Ž "q" 100%\\.txt')).toBe(
    `attachment; filename="_ _q_ 100__.txt"; filename*=UTF-8''%C5%BD%20%22q%22%20100%25%5C.txt`,
  );
  expect(contentDisposition("it's (1).png", "inline")).toBe(
    `inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`,
  );
});
