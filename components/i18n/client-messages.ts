import type { AbstractIntlMessages } from "next-intl";

/*
 * Which messages go to the browser. A `NextIntlClientProvider` rendered without `messages` hands every client
 * component the whole catalogue (some 100 KB of JSON in English), serialised into every page's payload and parsed
 * by the browser on every load. The layout gives the shell's namespaces only; each page wraps its own client
 * components in a provider with the namespaces they read (a nested provider replaces the outer one's messages).
 */

/** What the shell's client components read: the header's menus, the language and theme switchers, the command
 * palette, the keyboard shortcuts, the notification bell and the banner asking to confirm the e-mail address. */
const SHELL_NAMESPACES = ["Nav", "Theme", "Palette", "Shortcuts", "Inbox", "VerifyEmail"] as const;
/** The account menu's sign-out button reads these few of the security page's messages. */
const SIGN_OUT_KEYS = ["signOut", "working", "errorSignOut"] as const;

/** The namespaces of `messages` named, as a provider's `messages`. */
export function pickMessages(messages: AbstractIntlMessages, namespaces: readonly string[]): AbstractIntlMessages {
  return Object.fromEntries(
    namespaces.flatMap((namespace) => (namespace in messages ? [[namespace, messages[namespace]!]] : [])),
  );
}

/** The messages the layout's provider gives every page: the shell's. */
export function shellMessages(messages: AbstractIntlMessages): AbstractIntlMessages {
  const security = (messages.Security ?? {}) as AbstractIntlMessages;
  return { ...pickMessages(messages, SHELL_NAMESPACES), Security: pickMessages(security, SIGN_OUT_KEYS) };
}
