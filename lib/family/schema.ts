import { z } from "@hono/zod-openapi";
import { accountRefFields, exactlyOneAccount } from "../accounts/schema";
import { LOCALES } from "../i18n/locales";
import { groupOutput } from "../groups/schema";

export const FAMILY_ROLES = ["parent", "child"] as const;
export const FAMILY_NAME_MAX = 100;

const roleSchema = z.enum(FAMILY_ROLES, { message: `must be one of ${FAMILY_ROLES.join(", ")}` }).openapi({
  description:
    "`parent`: renames and deletes the workspace, adds and removes members, changes roles, stops sharing any " +
    "group and deletes shared groups; `child`: sees and works on the shared groups' tasks, shares and unshares " +
    "their own groups, and may leave.",
});

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(FAMILY_NAME_MAX, `must be at most ${FAMILY_NAME_MAX} characters`)
  .openapi({ description: `1-${FAMILY_NAME_MAX} characters (trimmed)` });

export const familyLangQuery = z.strictObject({
  lang: z
    .enum(LOCALES, { message: `must be one of ${LOCALES.join(", ")}` })
    .optional()
    .openapi({ description: "The language of each shared group's `name`; default: your profile locale, then en" }),
});
export type FamilyLangQuery = z.infer<typeof familyLangQuery>;

export const familyMemberParams = z.object({ userId: z.uuid("must be a user id") });
export const familyGroupParams = z.object({ groupId: z.uuid("must be a group id") });

export const createFamilyInput = z.strictObject({ name }).openapi("CreateFamilyInput");
export type CreateFamilyInput = z.infer<typeof createFamilyInput>;

export const updateFamilyInput = z.strictObject({ name }).openapi("UpdateFamilyInput");
export type UpdateFamilyInput = z.infer<typeof updateFamilyInput>;

export const addFamilyMemberInput = z
  .strictObject({
    ...accountRefFields(),
    role: roleSchema,
  })
  .superRefine(exactlyOneAccount)
  .openapi("AddFamilyMemberInput", { description: "Exactly one of `userId` and `email`, and a role" });
export type AddFamilyMemberInput = z.infer<typeof addFamilyMemberInput>;

export const changeFamilyRoleInput = z.strictObject({ role: roleSchema }).openapi("ChangeFamilyRoleInput");
export type ChangeFamilyRoleInput = z.infer<typeof changeFamilyRoleInput>;

export const familyMemberOutput = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    avatarUrl: z.string().nullable(),
    role: roleSchema,
    joinedAt: z.iso.datetime(),
  })
  .openapi("FamilyMember");
export type FamilyMemberOutput = z.infer<typeof familyMemberOutput>;

export const familyOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: roleSchema.openapi({ description: "Your role in the family workspace" }),
    createdBy: z.uuid().nullable().openapi({ description: "Who created it; null once that account is deleted" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    lang: z.enum(LOCALES).openapi({ description: "The language each shared group's `name` is in" }),
    members: z.array(familyMemberOutput).openapi({ description: "In the order they joined" }),
    groups: z.array(groupOutput).openapi({
      description:
        "The task groups shared with the workspace (archived ones too), by owner in the order they joined, then " +
        "in each owner's order; every member sees them and their tasks",
    }),
  })
  .openapi("Family");
export type FamilyOutput = z.infer<typeof familyOutput>;
