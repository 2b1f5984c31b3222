import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A passkey or platform authenticator a user registered (WebAuthn). */
export const webauthnCredentials = pgTable(
  "webauthn_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential id the authenticator chose (base64url). */
    credentialId: text("credential_id").notNull().unique(),
    /** The COSE public key (base64url). */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen: a lower one means a cloned authenticator. */
    counter: integer("counter").notNull().default(0),
    /** `usb`, `nfc`, `ble`, `internal`, `hybrid`... as the browser reported them. */
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `platform` or `cross-platform`, when the browser said. */
    attachment: text("attachment"),
    /** The authenticator model's AAGUID (all zeros when it does not say). */
    aaguid: text("aaguid").notNull(),
    /** `singleDevice` or `multiDevice` (a synced passkey). */
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    /** The detected kind: `face`, `touch`, `android_fingerprint`, `windows_hello` or `generic`. */
    label: text("label").notNull(),
    /** The name the user gave it (or the detected label's name until they do). */
    name: text("name").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("webauthn_credentials_user_idx").on(table.userId),
    check("webauthn_credentials_name_length", sql`char_length(${table.name}) between 1 and 100`),
  ],
);

export type WebauthnCredentialRow = typeof webauthnCredentials.$inferSelect;

/**
 * A challenge handed out for one WebAuthn ceremony: used once (`used_at`), and only until `expires_at`. For
 * registration it belongs to the signed-in user; for sign-in to the email asked about (known or not).
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `webauthn.register` or `webauthn.authenticate`. */
    purpose: text("purpose").notNull(),
    challenge: text("challenge").notNull().unique(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The normalised email a sign-in challenge was asked for. */
    email: text("email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auth_challenges_expires_idx").on(table.expiresAt)],
);

export type AuthChallengeRow = typeof authChallenges.$inferSelect;

/** An OAuth/OIDC authorization in flight: its state, PKCE verifier and nonce, used once. */
export const oauthStates = pgTable(
  "oauth_states",
  {
    /** The `state` parameter (random, base64url). */
    state: text("state").primaryKey(),
    provider: text("provider").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce"),
    /** Where to send the browser afterwards (a path on this site), or `json` for an API client. */
    returnTo: text("return_to").notNull(),
    /** The browser's IANA time zone, for an account this sign-in creates; null: the default zone. */
    timeZone: text("time_zone"),
    /**
     * SHA-256 (hex) of the random value in the httpOnly cookie set on the browser that started the sign-in: the
     * callback completes only in that browser (lib/oauth/service.ts), so that nobody can sign a victim in.
     */
    browserHash: text("browser_hash").notNull(),
    /**
     * Set when a signed-in user started this to link another external account to theirs (POST
     * /auth/{provider}/link): the callback links the identity to this account instead of signing anyone in.
     */
    linkUserId: uuid("link_user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("oauth_states_expires_idx").on(table.expiresAt)],
);

/** An external account (Google, GitHub, Microsoft...) linked to a user. */
export const userIdentities = pgTable(
  "user_identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** The provider's stable id for the account (`sub`, or GitHub's numeric id). */
    subject: text("subject").notNull(),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("user_identities_provider_subject_key").on(table.provider, table.subject),
    index("user_identities_user_idx").on(table.userId),
  ],
);

export type UserIdentityRow = typeof userIdentities.$inferSelect;
