import { z } from "@hono/zod-openapi";
import { accountRefFields, exactlyOneAccount } from "../accounts/schema";

export const USER_GROUP_ROLES = ["owner", "admin", "member"] as const;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;

const ROLE_LIST = USER_GROUP_ROLES.join(", ");

const roleSchema = z.enum(USER_GROUP_ROLES, { message: `must be one of ${ROLE_LIST}` }).openapi({
  description:
    "`owner`: everything, including deleting the group and granting or taking the owner role; `admin`: renames " +
    "the group, adds and removes members and admins, changes their roles (never an owner's); `member`: sees the " +
    "group, its members and their workload, and may leave.",
});

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(NAME_MAX, `must be at most ${NAME_MAX} characters`)
  .openapi({ description: `1-${NAME_MAX} characters (trimmed)` });
const description = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`)
  .openapi({ description: `At most ${DESCRIPTION_MAX} characters (trimmed); empty by default` });

export const userGroupIdParams = z.object({ id: z.uuid("must be a user group id") });

export const memberParams = z.object({
  id: z.uuid("must be a user group id"),
  userId: z.uuid("must be a user id"),
});

export const createUserGroupInput = z.strictObject({ name, description: description.optional() }).openapi("CreateUserGroupInput");
export type CreateUserGroupInput = z.infer<typeof createUserGroupInput>;

export const updateUserGroupInput = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine((input) => input.name !== undefined || input.description !== undefined, {
    message: "give name or description",
    path: ["name"],
  })
  .openapi("UpdateUserGroupInput", { description: "The fields given change; the others stay" });
export type UpdateUserGroupInput = z.infer<typeof updateUserGroupInput>;

export const addMemberInput = z
  .strictObject({
    ...accountRefFields(),
    role: roleSchema.optional().openapi({ description: "Default `member`. Only an owner may add an owner." }),
  })
  .superRefine(exactlyOneAccount)
  .openapi("AddUserGroupMemberInput", { description: "Exactly one of `userId` and `email`" });
export type AddMemberInput = z.infer<typeof addMemberInput>;

export const changeRoleInput = z.strictObject({ role: roleSchema }).openapi("ChangeUserGroupRoleInput");
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const userGroupOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    role: roleSchema.openapi({ description: "Your role in the group" }),
    memberCount: z.number().int(),
    createdBy: z.uuid().nullable().openapi({ description: "Who created the group; null once that account is deleted" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("UserGroup");
export type UserGroupOutput = z.infer<typeof userGroupOutput>;

export const userGroupListOutput = z
  .object({ items: z.array(userGroupOutput).openapi({ description: "Oldest group first" }) })
  .openapi("UserGroupList");
export type UserGroupListOutput = z.infer<typeof userGroupListOutput>;

export const memberOutput = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    avatarUrl: z.string().nullable(),
    role: roleSchema,
    joinedAt: z.iso.datetime(),
  })
  .openapi("UserGroupMember");
export type MemberOutput = z.infer<typeof memberOutput>;

export const memberListOutput = z
  .object({ items: z.array(memberOutput).openapi({ description: "In the order they joined" }) })
  .openapi("UserGroupMemberList");
export type MemberListOutput = z.infer<typeof memberListOutput>;

export const memberWorkloadOutput = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    role: roleSchema,
    active: z.number().int().openapi({ description: "The group's tasks assigned to the member that are in_progress" }),
    pending: z.number().int().openapi({ description: "The group's tasks assigned to the member that are todo" }),
    completed: z.number().int().openapi({ description: "The group's tasks assigned to the member that are done" }),
    overdue: z.number().int().openapi({
      description: "Of the active and pending ones, those whose due time has passed (counted in those too)",
    }),
  })
  .openapi("UserGroupMemberWorkload");
export type MemberWorkloadOutput = z.infer<typeof memberWorkloadOutput>;

export const teamWorkloadOutput = z
  .object({
    groupId: z.uuid(),
    items: z.array(memberWorkloadOutput).openapi({ description: "Every member, in the order they joined; zeros for none" }),
  })
  .openapi("UserGroupWorkload", {
    description:
      "Per member, counts over every task assigned to that member (whoever owns it): `active` = in_progress, " +
      "`pending` = todo, `completed` = done; `overdue`: active or pending with a due time in the past. Cancelled tasks, " +
      "and tasks nobody is assigned to, count nowhere.",
  });
export type TeamWorkloadOutput = z.infer<typeof teamWorkloadOutput>;
