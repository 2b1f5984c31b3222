import { describe, expect, test } from "vitest";
import { shareLinks, shareText } from "./links";

const URL_ = "https://spolu.example/invite/AbC-123_xyz";
/** Everything that breaks a naive link: spaces, &, #, ?, =, +, %, quotes and Czech and Hebrew letters. */
const TEXTS = [
  "Jana & Petr invite you to #1: “Paint the fence?” = 100% + more",
  "Jana Nováková vás zve k úkolu „Natřít plot & vyčistit #2“ ve Spolu.",
  "דנה הזמינה אותך למשימה “לצבוע את הגדר & #3” ב-Spolu.",
  "Line one\nline two\ttab",
];

/** The text after `marker` in a link, decoded (for the iOS SMS form, which URL parsing does not split). */
function decodedAfter(link: string, marker: string): string {
  const at = link.indexOf(marker);
  expect(at, `${marker} in ${link}`).toBeGreaterThan(-1);
  return decodeURIComponent(link.slice(at + marker.length));
}

describe.each(TEXTS)("share links for %j", (text) => {
  const links = shareLinks({ url: URL_, text });

  test("WhatsApp carries the text and the link in `text`", () => {
    const link = new URL(links.whatsapp);
    expect(`${link.origin}${link.pathname}`).toBe("https://wa.me/");
    expect([...link.searchParams.keys()]).toEqual(["text"]);
    expect(link.searchParams.get("text")).toBe(`${text}\n${URL_}`);
  });

  test("Telegram carries the link in `url` and the text in `text`", () => {
    const link = new URL(links.telegram);
    expect(`${link.origin}${link.pathname}`).toBe("https://t.me/share/url");
    expect([...link.searchParams.keys()]).toEqual(["url", "text"]);
    expect(link.searchParams.get("url")).toBe(URL_);
    expect(link.searchParams.get("text")).toBe(text);
  });

  test("SMS (RFC 5724) carries both in `body`; the iOS form too, after `&body=`", () => {
    const link = new URL(links.sms);
    expect(link.protocol).toBe("sms:");
    expect(link.pathname).toBe("");
    expect([...link.searchParams.keys()]).toEqual(["body"]);
    expect(link.searchParams.get("body")).toBe(`${text}\n${URL_}`);
    expect(links.smsIos.startsWith("sms:&body=")).toBe(true);
    expect(decodedAfter(links.smsIos, "&body=")).toBe(`${text}\n${URL_}`);
  });

  test("nothing unsafe is left unencoded, and copy is the link itself", () => {
    for (const link of [links.whatsapp, links.telegram, links.sms, links.smsIos]) {
      const query = link.slice(link.search(/[?&]/) + 1);
      // Only the separators between parameters are raw: no spaces, #, non-ASCII or line breaks.
      expect(query, link).toMatch(/^[A-Za-z0-9\-_.!~*'()%=&]+$/);
      expect(query.split("#")).toHaveLength(1);
    }
    expect(links.copy).toBe(URL_);
  });
});

describe("with the invitee's phone", () => {
  const links = shareLinks({ url: URL_, text: "Ahoj & vítej", phone: "+420601234567" });

  test("WhatsApp opens a chat with the digits (no +)", () => {
    const link = new URL(links.whatsapp);
    expect(link.pathname).toBe("/420601234567");
    expect(link.searchParams.get("text")).toBe(`Ahoj & vítej\n${URL_}`);
  });

  test("SMS is addressed to the number in both forms", () => {
    const link = new URL(links.sms);
    expect(link.pathname).toBe("+420601234567");
    expect(link.searchParams.get("body")).toBe(`Ahoj & vítej\n${URL_}`);
    expect(links.smsIos.startsWith("sms:+420601234567&body=")).toBe(true);
    expect(decodedAfter(links.smsIos, "&body=")).toBe(`Ahoj & vítej\n${URL_}`);
  });
});

describe("shareText", () => {
  test("says who invites to what, in the inviter's language", () => {
    expect(shareText("cs", { inviterName: "Jana", kind: "task", title: "Natřít plot" })).toBe(
      "Jana vás zve k úkolu „Natřít plot“ ve Spolu.",
    );
    expect(shareText("he", { inviterName: "דנה", kind: "project", title: "גינה" })).toContain("דנה");
    expect(shareText("he", { inviterName: "דנה", kind: "project", title: "גינה" })).toContain("גינה");
    expect(shareText("en", { inviterName: "Jana", kind: "project", title: "Garden" })).toBe(
      "Jana invites you to the project “Garden” on Spolu.",
    );
  });

  test("falls back to English for a language Spolu does not speak", () => {
    expect(shareText("de", { inviterName: "Jana", kind: "task", title: "Fence & gate" })).toBe(
      "Jana invites you to the task “Fence & gate” on Spolu.",
    );
  });

  test("keeps ICU syntax in a title as text", () => {
    expect(shareText("en", { inviterName: "{x}", kind: "task", title: "{count, plural, one {#} other {#}}" })).toBe(
      "{x} invites you to the task “{count, plural, one {#} other {#}}” on Spolu.",
    );
  });
});
