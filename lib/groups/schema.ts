import { z } from "@hono/zod-openapi";
import { timeZoneInput } from "../accounts/schema";
import { LOCALES } from "../i18n/locales";
import { DEFAULT_GROUPS, MAX_GROUPS, MAX_LOCATIONS, MAX_TIME_ZONES } from "./defaults";

/** One value per interface language, each optional. */
function perLanguage<T extends z.ZodType>(value: T) {
  return z.strictObject({ en: value, cs: value, he: value, ru: value, ua: value });
}

const LANGUAGES = LOCALES.join(", ");

const nameText = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

export const groupNamesInput = perLanguage(nameText.optional())
  .refine((names) => Object.values(names).some((name) => name !== undefined), "must name the group in at least one language")
  .openapi("GroupNamesInput", { description: `A name per language (${LANGUAGES}), at least one; each 1-100 characters` });

const langQuery = z
  .enum(LOCALES, { message: `must be one of ${LANGUAGES}` })
  .optional()
  .openapi({
    description:
      `The language of each group's \`name\`: one of ${LANGUAGES}. Default: your profile locale, then en. ` +
      "A group without a name in that language is named in English, else in the first language it has.",
  });

export const langOnlyQuery = z.strictObject({ lang: langQuery });
export type LangOnlyQuery = z.infer<typeof langOnlyQuery>;

export const listGroupsQuery = z.strictObject({
  lang: langQuery,
  includeArchived: z
    .stringbool({ message: "must be true or false" })
    .optional()
    .openapi({ type: "boolean", description: "Also list archived groups (default false)" }),
  counts: z
    .stringbool({ message: "must be true or false" })
    .optional()
    .openapi({ type: "boolean", description: "Give each group its `openTasks` count (default false)" }),
});
export type ListGroupsQuery = z.infer<typeof listGroupsQuery>;

export const groupIdParams = z.object({ id: z.uuid("must be a group id") });

export const deleteGroupQuery = z
  .strictObject({
    moveTo: z
      .uuid("must be a group id")
      .optional()
      .openapi({
        description:
          "Another group you can use (one of yours, archived ones too, or one shared with your family): the group's " +
          "tasks move there",
      }),
    deleteTasks: z.stringbool({ message: "must be true or false" }).optional().openapi({
      type: "boolean",
      description: "`true`: your tasks in the group are deleted with it (anyone else's go back to them)",
    }),
    lang: langQuery.openapi({
      description:
        "With `If-Match`: the `lang` of the `GET /groups/{id}` whose ETag it names (a group's ETag depends on the " +
        "language of its `name`). Default: your profile locale, then en.",
    }),
  })
  .refine((query) => !(query.moveTo && query.deleteTasks), {
    message: "pass either moveTo or deleteTasks=true, not both",
    path: ["deleteTasks"],
  });
export type DeleteGroupQuery = z.infer<typeof deleteGroupQuery>;

const location = z
  .strictObject({
    name: nameText,
    latitude: z.number().min(-90, "must be between -90 and 90").max(90, "must be between -90 and 90"),
    longitude: z.number().min(-180, "must be between -180 and 180").max(180, "must be between -180 and 180"),
    radiusMeters: z.number().min(1, "must be between 1 and 100000").max(100_000, "must be between 1 and 100000"),
  })
  .openapi("GroupLocation", { description: "A place (WGS 84 degrees) and the radius around it, in meters" });

const timeZones = z
  .array(timeZoneInput)
  .max(MAX_TIME_ZONES, `must list at most ${MAX_TIME_ZONES} time zones`)
  .superRefine((zones, context) => {
    zones.forEach((zone, index) => {
      if (zones.indexOf(zone) !== index) context.addIssue({ code: "custom", message: "is listed twice", path: [index] });
    });
  })
  .openapi({ description: `IANA time zones, at most ${MAX_TIME_ZONES}, each once` });

const locations = z
  .array(location)
  .max(MAX_LOCATIONS, `must list at most ${MAX_LOCATIONS} locations`)
  .openapi({ description: `At most ${MAX_LOCATIONS}` });

export const groupScheduleInput = z.strictObject({ timeZones, locations }).openapi("GroupScheduleInput", {
  description: "Replaces both lists; send [] to clear one",
});
export type GroupScheduleInput = z.infer<typeof groupScheduleInput>;

export const createGroupInput = z
  .strictObject({
    names: groupNamesInput,
    settings: groupScheduleInput.optional().openapi({ description: "Time zones and locations; default none" }),
  })
  .openapi("CreateGroupInput");
export type CreateGroupInput = z.infer<typeof createGroupInput>;

export const updateGroupInput = z
  .strictObject({
    names: perLanguage(nameText.nullable().optional())
      .optional()
      .openapi({
        description:
          "Merged per language: a language given is set, one given as null is removed, the others stay. " +
          "A group keeps at least one name.",
      }),
    archived: z.boolean().optional().openapi({ description: "Archived groups leave `GET /groups` (see includeArchived)" }),
  })
  .openapi("UpdateGroupInput");
export type UpdateGroupInput = z.infer<typeof updateGroupInput>;

export const reorderGroupsInput = z
  .strictObject({
    ids: z
      .array(z.uuid("must be a group id"))
      .min(1, "must list your groups")
      .max(MAX_GROUPS, `must list at most ${MAX_GROUPS} groups`)
      .refine((ids) => new Set(ids).size === ids.length, "must list each group once"),
  })
  .openapi("ReorderGroupsInput", {
    description: "Every one of your group ids exactly once (archived ones too), in the new order",
  });
export type ReorderGroupsInput = z.infer<typeof reorderGroupsInput>;

const groupSettingsOutput = z.object({ timeZones: z.array(z.string()), locations: z.array(location) }).openapi("GroupSettings");

export const groupOutput = z
  .object({
    id: z.uuid(),
    key: z
      .string()
      .nullable()
      .openapi({
        description: `The default group this is (${DEFAULT_GROUPS.map((group) => group.key).join(", ")}); null for your own`,
      }),
    ownerId: z.uuid().openapi({ description: "Who owns the group: you, or a member of your family workspace who shares it" }),
    own: z.boolean().openapi({ description: "`true`: your own group; `false`: shared with your family by another member" }),
    familyId: z.uuid().nullable().openapi({
      description:
        "The family workspace the group is shared with (all its members see the group and its tasks); null when not shared",
    }),
    name: z.string().openapi({ description: "The name in the answer's language (see `lang`)" }),
    names: perLanguage(z.string().optional()).openapi("GroupNames", { description: "Every name the group has, by language" }),
    position: z.number().int().openapi({
      description: "Groups are listed by position, ascending; a shared group keeps its place in its owner's order",
    }),
    archived: z.boolean(),
    openTasks: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({
        description:
          "Only in `GET /groups?counts=true`: how many tasks in the group are open (`todo` or `in_progress`), " +
          "whoever's they are (a group shared with your family holds its members' tasks too)",
        example: 3,
      }),
    archivedAt: z.iso.datetime().nullable(),
    settings: groupSettingsOutput,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Group");
export type GroupOutput = z.infer<typeof groupOutput>;

export const groupListOutput = z
  .object({
    lang: z.enum(LOCALES).openapi({ description: "The language each `name` is in" }),
    items: z.array(groupOutput),
  })
  .openapi("GroupList");
export type GroupListOutput = z.infer<typeof groupListOutput>;

export const groupScheduleOutput = z
  .object({ groupId: z.uuid(), timeZones: z.array(z.string()), locations: z.array(location) })
  .openapi("GroupSchedule");
export type GroupScheduleOutput = z.infer<typeof groupScheduleOutput>;
