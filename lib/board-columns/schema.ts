import { z } from "@hono/zod-openapi";
import { TASK_STATUSES } from "../tasks/vocabulary";

/** The most columns one project's or team's board has. */
export const BOARD_COLUMNS_MAX = 20;

const statusSchema = z.enum(TASK_STATUSES).openapi({
  description: "The task status the column maps to: a card dropped in it takes this status",
  example: "in_progress",
});
const columnName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(60, "must be at most 60 characters")
  .openapi({ description: "What the column is called (1 to 60 characters, trimmed)", example: "Review" });
const position = z
  .number()
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .openapi({ description: "0-based place among the board's columns; beyond the end means last", example: 2 });

export const boardColumnOutput = z
  .object({
    id: z.uuid().nullable().openapi({ description: "null for the four status columns of a board without custom ones" }),
    name: z.string().nullable().openapi({
      description: "null: the column is called after its status (shown in the reader's language)",
      example: "Review",
    }),
    status: statusSchema,
    position: z.number().int().openapi({ description: "0-based place on the board", example: 2 }),
  })
  .openapi("BoardColumn");
export type BoardColumnOutput = z.infer<typeof boardColumnOutput>;

export const boardColumnListOutput = z
  .object({
    custom: z.boolean().openapi({
      description: "false: the board has no columns of its own and shows one per status (`id` null in each)",
    }),
    items: z.array(boardColumnOutput).openapi({ description: "In board order" }),
  })
  .openapi("BoardColumnList", {
    example: {
      custom: true,
      items: [
        { id: "7d3c2f6e-8a51-4d2b-9c1e-0b5a4f3e2d10", name: null, status: "todo", position: 0 },
        { id: "1b6e1a52-3f0c-4c55-8a8e-5d1f9b2c7a31", name: null, status: "in_progress", position: 1 },
        { id: "9a0f7c44-2b1d-4e6a-b3c5-6d7e8f901a23", name: "Review", status: "in_progress", position: 2 },
        { id: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", name: null, status: "done", position: 3 },
        { id: "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9", name: null, status: "cancelled", position: 4 },
      ],
    },
  });
export type BoardColumnListOutput = z.infer<typeof boardColumnListOutput>;

export const createBoardColumnInput = z
  .strictObject({
    name: columnName,
    status: statusSchema,
    position: position.optional().openapi({ description: "Where it goes (0-based); default: last" }),
  })
  .openapi("CreateBoardColumnInput", { example: { name: "Review", status: "in_progress", position: 2 } });
export type CreateBoardColumnInput = z.infer<typeof createBoardColumnInput>;

export const updateBoardColumnInput = z
  .strictObject({
    name: columnName
      .nullable()
      .optional()
      .openapi({ description: "A new name; null: called after its status again", example: "Review" }),
    status: statusSchema.optional(),
    position: position.optional().openapi({ description: "Move it to this place (0-based)" }),
    beforeId: z.uuid("must be a column id").optional().openapi({ description: "Move it just before this column" }),
    afterId: z.uuid("must be a column id").optional().openapi({ description: "Move it just after this column" }),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of name, status, position, beforeId, afterId",
  })
  .superRefine((input, context) => {
    const places = (["position", "beforeId", "afterId"] as const).filter((field) => input[field] !== undefined);
    if (places.length > 1)
      context.addIssue({ code: "custom", path: [places[1]!], message: `give only one of position, beforeId, afterId` });
  })
  .openapi("UpdateBoardColumnInput", { example: { name: "In review", afterId: "1b6e1a52-3f0c-4c55-8a8e-5d1f9b2c7a31" } });
export type UpdateBoardColumnInput = z.infer<typeof updateBoardColumnInput>;

export const deleteBoardColumnQuery = z.strictObject({
  moveTo: z.uuid("must be a column id").optional().openapi({
    description: "The column its cards go to (one of the same board); default: the first other column of its status",
  }),
});

export const scopeIdParams = z.object({ id: z.uuid("must be an id") });
export const boardColumnParams = z.object({ id: z.uuid("must be an id"), columnId: z.uuid("must be a column id") });
