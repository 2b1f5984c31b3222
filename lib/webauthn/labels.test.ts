import { describe, expect, test } from "vitest";
import { clientPlatform, detectLabel, LABEL_TEXT, ZERO_AAGUID, type LabelSignals } from "./labels";

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
  linux: "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
  chromeos: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
};

const AAGUID = {
  windowsHello: "08987058-cadc-4b81-b6e1-30de50dcbe96",
  windowsHelloVbs: "9ddd1817-af5a-4672-a2b9-3e3dd95000a9",
  windowsHelloSoftware: "6028b017-b1d4-4c02-b4b3-afcdafc96bb2",
  icloud: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
  icloudManaged: "dd4ec289-e01d-41c9-bb89-70fa845d4bf2",
  google: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
  samsung: "53414d53-554e-4700-0000-000000000000",
  chromeMac: "adce0002-35bc-c60a-648b-0b25f1f05503",
  onePassword: "bada5566-a7aa-401f-bd96-45619a55120d",
  bitwarden: "d548826e-79b4-db40-a3d8-11116f7e8349",
  unknown: "12345678-9abc-4def-8123-456789abcdef",
};

function label(signals: Partial<LabelSignals>) {
  return detectLabel({ aaguid: ZERO_AAGUID, attachment: null, transports: [], ...signals });
}

describe("clientPlatform", () => {
  test.each([
    [UA.iphone, "ios"],
    [UA.ipad, "ios"],
    [UA.mac, "mac"],
    [UA.android, "android"],
    [UA.windows, "windows"],
    [UA.linux, "linux"],
    [UA.chromeos, "chromeos"],
    ["curl/8.5.0", "unknown"],
    [undefined, "unknown"],
  ] as const)("User-Agent %s → %s", (userAgent, platform) => {
    expect(clientPlatform(userAgent, undefined)).toBe(platform);
  });

  test("Sec-CH-UA-Platform wins over the User-Agent; an unknown hint falls back to it", () => {
    expect(clientPlatform(UA.linux, '"Android"')).toBe("android");
    expect(clientPlatform(undefined, '"Windows"')).toBe("windows");
    expect(clientPlatform(undefined, '"macOS"')).toBe("mac");
    expect(clientPlatform(undefined, '"Chrome OS"')).toBe("chromeos");
    expect(clientPlatform(UA.windows, '"Unknown"')).toBe("windows");
    expect(clientPlatform(UA.windows, "")).toBe("windows");
  });
});

describe("detectLabel", () => {
  test("Windows Hello AAGUIDs → windows_hello, whatever else is said", () => {
    for (const aaguid of [AAGUID.windowsHello, AAGUID.windowsHelloVbs, AAGUID.windowsHelloSoftware]) {
      expect(label({ aaguid })).toBe("windows_hello");
      expect(label({ aaguid, attachment: "platform", userAgent: UA.iphone })).toBe("windows_hello");
    }
  });

  test("iCloud Keychain → touch when made on a Mac itself, face otherwise", () => {
    expect(label({ aaguid: AAGUID.icloud, attachment: "platform", userAgent: UA.mac })).toBe("touch");
    expect(label({ aaguid: AAGUID.icloud, attachment: null, platformHint: '"macOS"' })).toBe("touch");
    expect(label({ aaguid: AAGUID.icloud, attachment: "platform", userAgent: UA.iphone })).toBe("face");
    expect(label({ aaguid: AAGUID.icloudManaged, attachment: "platform", userAgent: UA.ipad })).toBe("face");
    // An iPhone over a QR code to a Mac or a Windows PC.
    expect(label({ aaguid: AAGUID.icloud, attachment: "cross-platform", userAgent: UA.mac, transports: ["hybrid"] })).toBe(
      "face",
    );
    expect(label({ aaguid: AAGUID.icloud, attachment: "cross-platform", userAgent: UA.windows })).toBe("face");
  });

  test("Google Password Manager and Samsung Pass → android_fingerprint; Google's on a desktop itself → generic", () => {
    expect(label({ aaguid: AAGUID.google, attachment: "platform", userAgent: UA.android })).toBe("android_fingerprint");
    expect(label({ aaguid: AAGUID.google, attachment: "cross-platform", userAgent: UA.windows })).toBe("android_fingerprint");
    expect(label({ aaguid: AAGUID.google })).toBe("android_fingerprint");
    expect(label({ aaguid: AAGUID.google, attachment: "platform", userAgent: UA.windows })).toBe("generic");
    expect(label({ aaguid: AAGUID.samsung, attachment: "platform", userAgent: UA.android })).toBe("android_fingerprint");
  });

  test("Chrome on Mac → touch; password managers → generic even on a phone", () => {
    expect(label({ aaguid: AAGUID.chromeMac, attachment: "platform", userAgent: UA.mac })).toBe("touch");
    expect(label({ aaguid: AAGUID.onePassword, attachment: "platform", userAgent: UA.iphone })).toBe("generic");
    expect(label({ aaguid: AAGUID.bitwarden, attachment: "platform", userAgent: UA.windows })).toBe("generic");
  });

  test("an unknown or all-zero AAGUID on a platform authenticator → the platform's label", () => {
    expect(label({ attachment: "platform", userAgent: UA.iphone })).toBe("face");
    expect(label({ attachment: "platform", userAgent: UA.ipad })).toBe("face");
    expect(label({ attachment: "platform", userAgent: UA.mac })).toBe("touch");
    expect(label({ aaguid: AAGUID.unknown, attachment: "platform", userAgent: UA.android })).toBe("android_fingerprint");
    expect(label({ aaguid: AAGUID.unknown, attachment: "platform", userAgent: UA.windows })).toBe("windows_hello");
    expect(label({ attachment: "platform", platformHint: '"Windows"' })).toBe("windows_hello");
    // No attachment said, but the `internal` transport: built in.
    expect(label({ attachment: null, transports: ["internal"], userAgent: UA.iphone })).toBe("face");
    expect(label({ aaguid: AAGUID.icloud.toUpperCase(), attachment: "platform", userAgent: UA.mac })).toBe("touch");
  });

  test("anything else → generic", () => {
    expect(label({ attachment: "cross-platform", userAgent: UA.iphone, transports: ["usb"] })).toBe("generic");
    expect(label({ attachment: null, userAgent: UA.windows })).toBe("generic");
    expect(label({ attachment: "platform", userAgent: UA.linux })).toBe("generic");
    expect(label({ attachment: "platform", userAgent: UA.chromeos })).toBe("generic");
    expect(label({ attachment: "platform" })).toBe("generic");
  });

  test("every label has an English text", () => {
    expect(LABEL_TEXT).toEqual({
      face: "Face recognition",
      touch: "Touch recognition",
      android_fingerprint: "Android fingerprint",
      windows_hello: "Windows Hello",
      generic: "Passkey",
    });
  });
});
