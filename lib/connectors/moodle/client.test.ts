import { describe, expect, test } from "vitest";
import { phpFormFields } from "./client";
import { clip, htmlToText } from "./text";

describe("phpFormFields", () => {
  test("writes arrays and nested structures in PHP's bracket syntax, booleans as 1 and 0, and leaves out absent values", () => {
    expect(
      phpFormFields({
        courseids: [3, 5],
        userid: 7,
        returnusercount: false,
        options: [{ name: "a", value: true }],
        none: undefined,
      }),
    ).toEqual([
      ["courseids[0]", "3"],
      ["courseids[1]", "5"],
      ["userid", "7"],
      ["returnusercount", "0"],
      ["options[0][name]", "a"],
      ["options[0][value]", "1"],
    ]);
  });
});

describe("htmlToText", () => {
  test("keeps the text of Moodle's HTML: paragraphs, line breaks, list items, entities; drops tags and scripts", () => {
    expect(
      htmlToText(
        '<p>Read <a href="x">chapter&nbsp;3</a> &amp; take notes.</p><ul><li>one</li><li>two</li></ul><script>alert(1)</script>x<br/>y &#8211; &#x2713;',
      ),
    ).toBe("Read chapter 3 & take notes.\n\n- one\n- two\nx\ny – ✓");
    expect(htmlToText(null)).toBe("");
  });

  test("clip cuts with an ellipsis only when needed", () => {
    expect(clip("short", 10)).toBe("short");
    expect(clip("a longer text", 6)).toBe("a lon…");
  });
});
