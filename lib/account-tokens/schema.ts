/** What an emailed token looks like (32 random bytes in base64url): anything else is refused before a lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a token is for. */
export type AccountTokenPurpose = "password_reset" | "email_verification";
