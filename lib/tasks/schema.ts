import { z } from "@hono/zod-openapi";
import { PRIORITIES, TASK_STATUSES } from "./vocabulary";
export const LIST_LIMIT_MAX = 200;
const MAX_TAGS = 20;
const MAX_ASSIGNEES = 50;

const statusSchema = z.enum(TASK_STATUSES).openapi({
  description:
    "`todo`: not started; `in_progress`: being worked on; `done`: finished (sets completedAt); " +
    "`cancelled`: will not be done (no completedAt, not counted as completed).",
});
const prioritySchema = z.enum(PRIORITIES).openapi({ description: "Sorted low < normal < high < urgent" });
const title = z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters");
const description = z.string().max(20_000, "must be at most 20000 characters");
const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z" });
const localDate = z.iso.date("must be a date such as 2026-12-01");
const tag = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[^,]+$/, "must not contain a comma")
  .openapi({ example: "errands" });
const tags = z
  .array(tag)
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .transform((values) => [...new Set(values)]);

export const recurrenceSchema = z
  .strictObject({
    frequency: z.enum(["daily", "weekly", "monthly"]),
    interval: z.number().int("must be a whole number").min(1).max(365).default(1).openapi({ description: "Every N units" }),
    anchor: z
      .enum(["scheduled", "completion"])
      .default("scheduled")
      .openapi({
        description:
          "`scheduled` (default): each occurrence is due N units after the series' previous schedule; " +
          "`completion`: due N units after the previous occurrence was done.",
      }),
    until: localDate.nullable().default(null).openapi({ description: "No occurrence is due after this local date" }),
    count: z.number().int().min(1).max(10_000).nullable().default(null).openapi({ description: "At most this many occurrences" }),
  })
  .openapi("Recurrence", {
    description:
      "Computed in the owner's time zone: 09:00 stays 09:00 across DST changes; a monthly series on the 31st " +
      "falls on the last day of shorter months. A recurring task needs `dueAt`.",
  });

export const createTaskInput = z
  .strictObject({
    title,
    description: description.optional(),
    status: statusSchema.optional(),
    priority: prioritySchema.optional(),
    dueAt: dateTime.nullable().optional(),
    startDate: localDate.nullable().optional(),
    groupId: z.uuid("must be a group id").optional().openapi({ description: "Defaults to your first active group" }),
    projectId: z
      .uuid()
      .nullable()
      .optional()
      .openapi({ description: "A project you belong to as owner, admin or member: its members see the task" }),
    userGroupId: z
      .uuid("must be a user group id")
      .nullable()
      .optional()
      .openapi({ description: "Assigns the task to a whole user group you belong to: every member sees it. null: none" }),
    assigneeIds: z
      .array(z.uuid("must be a user id"))
      .max(MAX_ASSIGNEES)
      .optional()
      .openapi({ description: "Yourself, or people already assigned; others join through a collaboration request" }),
    tags: tags.optional(),
    recurrence: recurrenceSchema.nullable().optional(),
  })
  .openapi("CreateTaskInput");
export type CreateTaskInput = z.infer<typeof createTaskInput>;

export const updateTaskInput = createTaskInput
  .partial()
  .extend({ groupId: z.uuid("must be a group id").optional() })
  .openapi("UpdateTaskInput");
export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

export const taskOutput = z
  .object({
    id: z.uuid(),
    ownerId: z.uuid(),
    groupId: z.uuid(),
    projectId: z.uuid().nullable(),
    userGroupId: z.uuid().nullable().openapi({ description: "The user group the task is assigned to as a whole" }),
    title: z.string(),
    description: z.string(),
    status: statusSchema,
    priority: prioritySchema,
    dueAt: z.iso.datetime().nullable(),
    startDate: z.iso.date().nullable(),
    tags: z.array(z.string()),
    assigneeIds: z.array(z.uuid()),
    collaboratorIds: z
      .array(z.uuid())
      .openapi({ description: "People working on the task with its owner (accepted collaborate requests)" }),
    position: z.string().openapi({ description: "Board order key: tasks sort by it (bytewise), then by id", example: "a0V" }),
    recurrence: recurrenceSchema.nullable(),
    seriesId: z.uuid().nullable().openapi({ description: "Shared by every occurrence of a recurring task" }),
    occurrence: z.number().int().nullable(),
    subtasks: z.object({ total: z.number().int(), done: z.number().int() }),
    completedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Task");
export type TaskOutput = z.infer<typeof taskOutput>;

const person = z.object({ id: z.uuid(), name: z.string() });

export const taskPeopleOutput = z
  .object({
    owner: person,
    assignees: z.array(person).openapi({ description: "In the order they were assigned" }),
    collaborators: z.array(person).openapi({ description: "In the order they joined" }),
    userGroup: person
      .nullable()
      .openapi({ description: "The user group the task is assigned to as a whole (its id and name); null: none" }),
  })
  .openapi("TaskPeople", { description: "Who takes part in a task, by name: tasks themselves carry only ids" });
export type TaskPeopleOutput = z.infer<typeof taskPeopleOutput>;

const commaList = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((text) => text.split(","))
    .pipe(z.array(z.enum(values)));

export const TASK_SORTS = [
  "position",
  "dueAt",
  "-dueAt",
  "priority",
  "-priority",
  "createdAt",
  "-createdAt",
  "updatedAt",
  "-updatedAt",
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const listTasksQuery = z
  .strictObject({
    status: commaList(TASK_STATUSES)
      .optional()
      .openapi({ type: "string", description: "Statuses to include, comma-separated", example: "todo,in_progress" }),
    groupId: z.uuid().optional().openapi({ description: "Only the tasks of this group" }),
    projectId: z.uuid().optional().openapi({ description: "Only the tasks of this project" }),
    userGroupId: z.uuid().optional().openapi({ description: "Only the tasks assigned to this user group (team) as a whole" }),
    assigneeId: z.uuid().optional().openapi({ description: "Only the tasks assigned to this user" }),
    dueBefore: dateTime.optional().openapi({ description: "Only tasks due before this moment (exclusive)" }),
    dueAfter: dateTime.optional().openapi({ description: "Only tasks due at or after this moment (inclusive)" }),
    q: z.string().trim().min(1).max(200).optional().openapi({ description: "Words in the title or description" }),
    tag: tag.optional().openapi({ description: "Only tasks with this exact tag" }),
    sort: z.enum(TASK_SORTS).default("position").openapi({
      description: "A leading `-` sorts descending. Tasks without a due date come last either way.",
    }),
    cursor: z.string().max(500).optional().openapi({ description: "`nextCursor` of the previous page" }),
    limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(50).openapi({ description: "Tasks per page" }),
  })
  .openapi("ListTasksQuery");
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

export const taskListOutput = z
  .object({
    items: z.array(taskOutput),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("TaskList");

export const taskIdParams = z.object({ id: z.uuid("must be a task id") });

export const subtaskOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid(),
    title: z.string(),
    done: z.boolean(),
    position: z.number().int(),
    completedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Subtask");
export type SubtaskOutput = z.infer<typeof subtaskOutput>;

export const createSubtaskInput = z.strictObject({ title, done: z.boolean().optional() }).openapi("CreateSubtaskInput");
export const updateSubtaskInput = z
  .strictObject({ title: title.optional(), done: z.boolean().optional() })
  .openapi("UpdateSubtaskInput");
export const reorderInput = z
  .strictObject({ ids: z.array(z.uuid()).max(500) })
  .openapi("ReorderInput", { description: "Every id exactly once, in the new order" });
export const subtaskParams = z.object({ id: z.uuid("must be a task id"), subtaskId: z.uuid("must be a subtask id") });

export const moveTaskInput = z
  .strictObject({
    status: statusSchema.optional().openapi({ description: "The column the task is dropped in; default: unchanged" }),
    afterId: z.uuid().nullable().optional().openapi({ description: "The task just above the drop point (null: top)" }),
    beforeId: z.uuid().nullable().optional().openapi({ description: "The task just below the drop point (null: bottom)" }),
    columnId: z
      .uuid("must be a column id")
      .optional()
      .openapi({
        description:
          "A column of the board of the task's project or team (`GET /board` names them): the task takes the column's " +
          "status and stays in that column on that board, also where the status has several columns",
      }),
  })
  .openapi("MoveTaskInput", { example: { columnId: "9a0f7c44-2b1d-4e6a-b3c5-6d7e8f901a23", afterId: null } });
export type MoveTaskInput = z.infer<typeof moveTaskInput>;

export const boardQuery = z.strictObject({
  groupId: z.uuid().optional().openapi({ description: "Only the tasks of this group" }),
  projectId: z.uuid().optional().openapi({ description: "Only the tasks of this project" }),
  userGroupId: z
    .uuid()
    .optional()
    .openapi({ description: "Only the tasks assigned to this user group (team) as a whole: the team's board" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .openapi({ description: "Cards per column (default 50: the first screen; it was 200 before columns were paged)" }),
  status: statusSchema.optional().openapi({ description: "Only this status's columns: to load more of one, with `cursor`" }),
  columnId: z.uuid("must be a column id").optional().openapi({
    description: "Only this column of the project's or team's own columns: to load more of it, with `cursor`",
  }),
  cursor: z
    .string()
    .max(1000)
    .optional()
    .openapi({
      description:
        "A column's `nextCursor`: that column's next cards (needs `status`, or `columnId` for a project's or team's own " +
        "column, and the same filters)",
    }),
});

export const boardOutput = z
  .object({
    columns: z.array(
      z.object({
        id: z.uuid().nullable().openapi({
          description: "The column's id when the project or team has columns of its own (`columnId`); null otherwise",
        }),
        name: z.string().nullable().openapi({
          description: "The column's name; null: called after its status (always for one column per status)",
          example: "Review",
        }),
        status: statusSchema,
        tasks: z.array(taskOutput),
        total: z.number().int().openapi({ description: "Tasks in the column (may exceed `limit`)" }),
        nextCursor: z
          .string()
          .nullable()
          .openapi({
            description:
              "More cards follow: ask again with `status` (or `columnId` when `id` is set) and this `cursor` (null: this is " +
              "the column's end)",
          }),
      }),
    ),
    people: z.array(person).openapi({
      description: "The names of the answer's cards' assignees (cards carry only `assigneeIds`), each person once",
    }),
  })
  .openapi("Board");
export type BoardOutput = z.infer<typeof boardOutput>;

export const workloadOutput = z
  .object({
    userId: z.uuid(),
    active: z.number().int(),
    pending: z.number().int(),
    completed: z.number().int(),
    overdue: z.number().int(),
  })
  .openapi("Workload", {
    description:
      "Counts over the tasks the user is responsible for: assigned to them, or owned by them with nobody " +
      "assigned. `active`: in_progress; `pending`: todo; `completed`: done (since `completedSince` when given); " +
      "`overdue`: todo or in_progress with a due time in the past. Cancelled tasks count nowhere.",
  });

export const workloadQuery = z.strictObject({
  completedSince: dateTime.optional().openapi({ description: "Count as `completed` only the tasks done since this moment" }),
});

export const viewCountsQuery = z.strictObject({}).openapi("ViewCountsQuery");

export const viewCountsOutput = z
  .object({
    day: z.iso.date().openapi({ description: "Today in your time zone, the day the views start from", example: "2026-11-28" }),
    timeZone: z.string().openapi({ description: "Your profile's time zone", example: "Europe/Prague" }),
    today: z.number().int().min(0).openapi({ description: "Open tasks overdue or due today", example: 3 }),
    upcoming: z.number().int().min(0).openapi({ description: "Open tasks due today or in the 13 days after it", example: 7 }),
  })
  .openapi("ViewCounts", {
    description:
      "How many tasks the task list's Today and Upcoming views hold: the tasks you can see (as `GET /tasks`) that " +
      "are open (`todo` or `in_progress`) and due in the view's whole days of your time zone.",
  });
export type ViewCountsOutput = z.infer<typeof viewCountsOutput>;
