import { describe, expect, test } from "vitest";
import { describeFormat, sniffFormat } from "./sniff";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x18], "ftyp", brand, [0, 0, 0, 0], "isom", [0, 0, 0, 0]);

describe("sniffFormat", () => {
  test.each([
    ["JPEG", bytes([0xff, 0xd8, 0xff, 0xe0]), { photo: "image/jpeg" }],
    ["PNG", bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a], "rest"), { photo: "image/png" }],
    ["GIF", bytes("GIF89a", [1, 0]), { photo: "image/gif" }],
    ["WebP", bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "), { photo: "image/webp" }],
    ["HEIC", ftyp("heic"), { photo: "image/heic" }],
    ["AVIF", ftyp("avif"), { photo: "image/avif" }],
    ["WAV", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "), { audio: "audio/wav" }],
    ["FLAC", bytes("fLaC", [0, 0, 0, 0x22]), { audio: "audio/flac" }],
    ["MP3 with ID3", bytes("ID3", [4, 0, 0]), { audio: "audio/mpeg" }],
    ["MP3 frame", bytes([0xff, 0xfb, 0x90, 0x64]), { audio: "audio/mpeg" }],
    ["M4A", ftyp("M4A "), { audio: "audio/mp4" }],
    ["MP4", ftyp("isom"), { audio: "audio/mp4", video: "video/mp4" }],
    ["QuickTime", ftyp("qt  "), { video: "video/quicktime" }],
    ["Ogg Opus", bytes("OggS", [0, 2], new Array(20).fill(0), "OpusHead"), { audio: "audio/ogg", video: "video/ogg" }],
    ["WebM", bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], "webm"), { audio: "audio/webm", video: "video/webm" }],
    [
      "Matroska",
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], "matroska"),
      { audio: "audio/x-matroska", video: "video/x-matroska" },
    ],
    ["UTF-8 text", Buffer.from("Příliš žluťoučký kůň\n"), { text: "text/plain; charset=utf-8" }],
  ])("%s", (_name, input, expected) => {
    expect(sniffFormat(input)).toEqual(expected);
  });

  test.each([
    ["an executable", bytes("MZ", [0x90, 0, 3, 0])],
    ["a PDF's binary marker", bytes("%PDF-1.7\n%", [0xe2, 0xe3, 0xcf, 0xd3])],
    ["text with a NUL", Buffer.from("a\u0000b")],
    ["invalid UTF-8", bytes([0x61, 0xc3, 0x28])],
    ["an MPEG-like header with a reserved version", bytes([0xff, 0xe9, 0x90, 0x64])],
  ])("%s is none of the formats", (_name, input) => {
    expect(sniffFormat(input)).toBeNull();
  });

  test("an SVG, even with a script, is only text: never a photo", () => {
    const format = sniffFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(format).toEqual({ text: "text/plain; charset=utf-8" });
    expect(format?.photo).toBeUndefined();
  });

  test("describeFormat names the first type without parameters", () => {
    expect(describeFormat({ text: "text/plain; charset=utf-8" })).toBe("text/plain");
    expect(describeFormat({ audio: "audio/webm", video: "video/webm" })).toBe("audio/webm");
  });
});
