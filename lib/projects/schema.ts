import { z } from "@hono/zod-openapi";
import { accountRefFields, exactlyOneAccount } from "../accounts/schema";

export const PROJECT_ROLES = ["owner", "admin", "member", "viewer"] as const;
export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 2000;

const ROLE_LIST = PROJECT_ROLES.join(", ");

const roleSchema = z.enum(PROJECT_ROLES, { message: `must be one of ${ROLE_LIST}` }).openapi({
  description:
    "`owner`: everything, including deleting the project and granting or taking the owner role; `admin`: edits and " +
    "archives the project, adds and removes members, admins and viewers and changes their roles (never an owner's); " +
    "`member`: sees the project's tasks, adds tasks to it and edits them; `viewer`: sees the project and its tasks, " +
    "changes nothing. Anyone may leave.",
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
const color = z
  .string()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, "must be a colour written #rrggbb (six hexadecimal digits)")
  .nullable()
  .openapi({ description: "A display colour, `#rrggbb` (stored in lower case), or null for none", example: "#3b82f6" });

export const projectIdParams = z.object({ id: z.uuid("must be a project id") });

export const memberParams = z.object({
  id: z.uuid("must be a project id"),
  userId: z.uuid("must be a user id"),
});

export const listProjectsQuery = z
  .strictObject({
    archived: z
      .enum(["true", "false"], { message: "must be true or false" })
      .optional()
      .openapi({ description: "`true` lists archived projects too; by default they are left out" }),
  })
  .openapi("ListProjectsQuery");
export type ListProjectsQuery = z.infer<typeof listProjectsQuery>;

export const createProjectInput = z
  .strictObject({ name, description: description.optional(), color: color.optional() })
  .openapi("CreateProjectInput");
export type CreateProjectInput = z.infer<typeof createProjectInput>;

export const updateProjectInput = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    color: color.optional(),
    archived: z.boolean().optional().openapi({
      description: "`true` archives the project (hidden from `GET /projects` unless `archived=true`), `false` restores it",
    }),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of name, description, color, archived",
    path: ["name"],
  })
  .openapi("UpdateProjectInput", { description: "The fields given change; the others stay" });
export type UpdateProjectInput = z.infer<typeof updateProjectInput>;

export const addMemberInput = z
  .strictObject({
    ...accountRefFields(),
    role: roleSchema.optional().openapi({ description: "Default `member`. Only an owner may add an owner." }),
  })
  .superRefine(exactlyOneAccount)
  .openapi("AddProjectMemberInput", { description: "Exactly one of `userId` and `email`" });
export type AddMemberInput = z.infer<typeof addMemberInput>;

export const changeRoleInput = z.strictObject({ role: roleSchema }).openapi("ChangeProjectRoleInput");
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const projectOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    color: z.string().nullable().openapi({ description: "`#rrggbb` or null" }),
    role: roleSchema.openapi({ description: "Your role in the project" }),
    memberCount: z.number().int(),
    tasks: z
      .object({
        total: z.number().int().openapi({ description: "Every task in the project" }),
        open: z.number().int().openapi({ description: "Those that are todo or in_progress" }),
      })
      .openapi({ description: "The project's tasks, which every member sees" }),
    archived: z.boolean(),
    archivedAt: z.iso.datetime().nullable(),
    createdBy: z.uuid().nullable().openapi({ description: "Who created the project; null once that account is deleted" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Project");
export type ProjectOutput = z.infer<typeof projectOutput>;

export const projectListOutput = z
  .object({ items: z.array(projectOutput).openapi({ description: "Oldest project first" }) })
  .openapi("ProjectList");
export type ProjectListOutput = z.infer<typeof projectListOutput>;

export const memberOutput = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    avatarUrl: z.string().nullable(),
    role: roleSchema,
    joinedAt: z.iso.datetime(),
  })
  .openapi("ProjectMember");
export type MemberOutput = z.infer<typeof memberOutput>;

export const memberListOutput = z
  .object({ items: z.array(memberOutput).openapi({ description: "In the order they joined" }) })
  .openapi("ProjectMemberList");
export type MemberListOutput = z.infer<typeof memberListOutput>;

export const projectWorkloadOutput = z
  .object({
    projectId: z.uuid(),
    items: z
      .array(
        z.object({
          userId: z.uuid(),
          name: z.string(),
          role: roleSchema,
          active: z.number().int().openapi({ description: "The project's tasks assigned to the member that are in_progress" }),
          pending: z.number().int().openapi({ description: "The project's tasks assigned to the member that are todo" }),
          completed: z.number().int().openapi({ description: "The project's tasks assigned to the member that are done" }),
          overdue: z.number().int().openapi({
            description: "Of the active and pending ones, those whose due time has passed (counted in those too)",
          }),
        }),
      )
      .openapi({ description: "Every member, in the order they joined; zeros for none" }),
  })
  .openapi("ProjectWorkload", {
    description:
      "Per member, counts over the project's tasks assigned to that member (whoever owns them). Cancelled tasks, and " +
      "tasks nobody is assigned to, count nowhere; a member's tasks outside the project are not counted.",
  });
export type ProjectWorkloadOutput = z.infer<typeof projectWorkloadOutput>;
