/**
 * Which kind of device a passkey lives on, for a label the user recognises. WebAuthn cannot tell face from
 * fingerprint from PIN (the `uvm` extension was dropped and Android reports an OR of its methods), so the kind is
 * guessed from the authenticator's provider (its AAGUID, where the model is known) and the platform the browser
 * runs on (the User-Agent and Sec-CH-UA-Platform headers), and the user may rename the device.
 * AAGUIDs: passkeydeveloper/passkey-authenticator-aaguids `aaguid.json` (facts only; see protocols.md §B4).
 */

export const DEVICE_LABELS = ["face", "touch", "android_fingerprint", "windows_hello", "generic"] as const;
export type DeviceLabel = (typeof DEVICE_LABELS)[number];

/** The English text of each label (the pages translate by the code); also a new device's default name. */
export const LABEL_TEXT: Record<DeviceLabel, string> = {
  face: "Face recognition",
  touch: "Touch recognition",
  android_fingerprint: "Android fingerprint",
  windows_hello: "Windows Hello",
  generic: "Passkey",
};

export const ZERO_AAGUID = "00000000-0000-0000-0000-000000000000";

/** Who keeps the passkey, as far as the AAGUID tells. */
type Provider = "apple" | "google" | "samsung" | "windows" | "chrome_mac" | "password_manager" | "other_known";

const PROVIDERS: Record<string, Provider> = {
  // Google Password Manager: Android, and Chrome's synced passkeys.
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "google",
  // Windows Hello ("Hardware", "VBS Hardware" and "Software" Authenticator).
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "windows",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "windows",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "windows",
  // Apple Passwords / iCloud Keychain, and its managed variant.
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "apple",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "apple",
  "53414d53-554e-4700-0000-000000000000": "samsung",
  // Chrome on Mac and Edge on Mac: the Mac's own keychain, unlocked with Touch ID.
  "adce0002-35bc-c60a-648b-0b25f1f05503": "chrome_mac",
  "771b48fd-d3d4-4f74-9232-fc157ab0507a": "chrome_mac",
  // Chromium's own authenticator: nothing tells which method unlocks it.
  "b5397666-4885-aa6b-cebf-e52262a439a2": "other_known",
  // Password managers (1Password, Bitwarden, Dashlane, Proton Pass, NordPass, KeePassXC): whatever the device,
  // the passkey is the manager's, not the platform's biometric authenticator.
  "bada5566-a7aa-401f-bd96-45619a55120d": "password_manager",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "password_manager",
  "531126d6-e717-415c-9320-3d9aa6981239": "password_manager",
  "50726f74-6f6e-5061-7373-50726f746f6e": "password_manager",
  "b84e4048-15dc-4dd0-8640-f4f60813c8af": "password_manager",
  "fdb141b2-5d84-443e-8a35-4698c205a502": "password_manager",
};

export type ClientPlatform = "ios" | "mac" | "android" | "windows" | "chromeos" | "linux" | "unknown";

/**
 * The platform the browser runs on: Sec-CH-UA-Platform when the browser sent it (Chromium does by default),
 * else the User-Agent. iPadOS Safari presents itself as a Mac, so an iPad may come out as `mac`.
 */
export function clientPlatform(userAgent: string | undefined, platformHint: string | undefined): ClientPlatform {
  const hint = platformHint?.trim().replace(/^"|"$/g, "").toLowerCase();
  if (hint) {
    if (hint === "ios") return "ios";
    if (hint === "macos") return "mac";
    if (hint === "android") return "android";
    if (hint === "windows") return "windows";
    if (hint === "chrome os" || hint === "chromeos") return "chromeos";
    if (hint === "linux") return "linux";
  }
  const agent = userAgent ?? "";
  // Order matters: iOS agents say "like Mac OS X", Android agents say "Linux".
  if (/\b(iPhone|iPad|iPod)\b/.test(agent)) return "ios";
  if (/\bAndroid\b/.test(agent)) return "android";
  if (/\bCrOS\b/.test(agent)) return "chromeos";
  if (/\bWindows\b/.test(agent)) return "windows";
  if (/\b(Macintosh|Mac OS X)\b/.test(agent)) return "mac";
  if (/\bLinux\b/.test(agent)) return "linux";
  return "unknown";
}

const DESKTOPS: ReadonlySet<ClientPlatform> = new Set(["mac", "windows", "chromeos", "linux"]);

/** The label of the platform's own biometric authenticator, for a passkey made on that platform. */
function platformLabel(platform: ClientPlatform): DeviceLabel {
  switch (platform) {
    case "ios":
      return "face";
    case "mac":
      return "touch";
    case "android":
      return "android_fingerprint";
    case "windows":
      return "windows_hello";
    default:
      return "generic";
  }
}

export interface LabelSignals {
  /** The AAGUID from the attested credential data (lower case, with dashes). */
  aaguid: string;
  /** `platform`, `cross-platform`, or null when the browser did not say. */
  attachment: string | null;
  transports: readonly string[];
  userAgent?: string;
  /** The Sec-CH-UA-Platform request header, as sent (quoted). */
  platformHint?: string;
}

/**
 * The label of a newly registered passkey:
 * - a known AAGUID decides first: Windows Hello → `windows_hello`; iCloud Keychain → `touch` when made on a Mac
 *   itself, else `face` (an iPhone, also over a QR code/hybrid to another computer); Google Password Manager and
 *   Samsung Pass → `android_fingerprint`, except Google's on a desktop browser itself (Chrome's synced passkeys,
 *   unlocked with a Google PIN) → `generic`; Chrome/Edge on Mac → `touch`; password managers and Chromium → `generic`;
 * - otherwise (all-zero or unknown AAGUID) a platform authenticator (attachment `platform`, or no attachment with
 *   the `internal` transport) gets its platform's label: iPhone/iPad → `face`, Mac → `touch`, Android →
 *   `android_fingerprint`, Windows → `windows_hello`;
 * - anything else (a security key, a phone over hybrid, an unknown platform) → `generic`.
 */
export function detectLabel(signals: LabelSignals): DeviceLabel {
  const platform = clientPlatform(signals.userAgent, signals.platformHint);
  const onThisDevice =
    signals.attachment === "platform" || (signals.attachment === null && signals.transports.includes("internal"));
  switch (PROVIDERS[signals.aaguid.toLowerCase()]) {
    case "windows":
      return "windows_hello";
    case "apple":
      return platform === "mac" && signals.attachment !== "cross-platform" ? "touch" : "face";
    case "google":
      return DESKTOPS.has(platform) && onThisDevice ? "generic" : "android_fingerprint";
    case "samsung":
      return "android_fingerprint";
    case "chrome_mac":
      return "touch";
    case "password_manager":
    case "other_known":
      return "generic";
    default:
      return onThisDevice ? platformLabel(platform) : "generic";
  }
}
