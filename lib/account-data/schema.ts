import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH } from "../auth/passwords";

/** A sign-in younger than this deletes the account without the password. */
export const FRESH_SIGN_IN_MINUTES = 10;

export const deleteAccountInput = z
  .strictObject({
    password: z
      .string()
      .min(1, "is required")
      .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
      .optional()
      .openapi({
        description:
          `The account's password. Needed unless the session token was issued less than ${FRESH_SIGN_IN_MINUTES} ` +
          "minutes ago (a fresh sign-in, the only way for accounts without a password).",
      }),
  })
  .openapi("DeleteAccountInput");
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

const rows = z.array(z.record(z.string(), z.unknown()));

export const accountExportOutput = z
  .object({
    exportedAt: z.iso.datetime(),
    user: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The profile: id, email, name, locale, time zone, avatar, dates (no password hash)" }),
  })
  .catchall(rows)
  .openapi("AccountExport", {
    description:
      "Besides `exportedAt` and `user`, one key per kind of data, each a list of rows with their columns in camelCase " +
      "(see the route's description for the keys).",
  });
export type AccountExportOutput = z.infer<typeof accountExportOutput>;
