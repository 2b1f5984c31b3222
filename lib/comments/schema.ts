import { z } from "@hono/zod-openapi";

export const COMMENT_BODY_MAX = 10_000;
export const MENTIONS_MAX = 50;
export const COMMENT_PAGE_MAX = 100;

const body = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(COMMENT_BODY_MAX, `must be at most ${COMMENT_BODY_MAX} characters`)
  .openapi({
    description:
      "Markdown: paragraphs, line breaks, **bold**, *italic*, `code`, code blocks, lists, quotes and http(s) links. " +
      "Raw HTML is never rendered: it shows as the text it is.",
    example: "Looks good, @Ana — see **step 2**.",
  });

const mentions = z
  .array(z.uuid("must be a user id"))
  .max(MENTIONS_MAX, `at most ${MENTIONS_MAX} people`)
  .openapi({
    description:
      "Ids of people the comment mentions: each must be able to see the task (otherwise a 400 naming " +
      "`/mentions/<index>`); each is notified once. Duplicates count once.",
  });

export const createCommentInput = z.object({ body, mentions: mentions.optional() }).strict().openapi("CreateCommentInput");
export type CreateCommentInput = z.infer<typeof createCommentInput>;

export const updateCommentInput = z
  .object({ body: body.optional(), mentions: mentions.optional() })
  .strict()
  .refine((input) => input.body !== undefined || input.mentions !== undefined, {
    message: "send body, mentions or both",
    path: ["body"],
  })
  .openapi("UpdateCommentInput", { description: "Fields left out keep their value; newly mentioned people are notified." });
export type UpdateCommentInput = z.infer<typeof updateCommentInput>;

const person = z.object({ id: z.uuid(), name: z.string() });

export const commentOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid(),
    author: person,
    body: z.string().openapi({ description: "Markdown, as written: render it without raw HTML" }),
    mentions: z.array(person).openapi({ description: "The people mentioned, by name (those whose account still exists)" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    editedAt: z.iso.datetime().nullable().openapi({ description: "When its author last changed it; null: never" }),
  })
  .openapi("Comment");
export type CommentOutput = z.infer<typeof commentOutput>;

export const mentioneeListOutput = z
  .object({
    items: z.array(person).openapi({ description: "By name, A to Z" }),
  })
  .openapi("MentioneeList", {
    description:
      "The people a comment on the task may mention: everyone who can see it (the rule `mentions` is checked " +
      "against), apart from you",
    example: { items: [{ id: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", name: "Jana Nováková" }] },
  });
export type MentioneeListOutput = z.infer<typeof mentioneeListOutput>;

export const commentListOutput = z
  .object({
    items: z.array(commentOutput),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("CommentList");
export type CommentListOutput = z.infer<typeof commentListOutput>;

export const listCommentsQuery = z.object({
  cursor: z.string().max(500).optional().openapi({ description: "`nextCursor` of the previous page" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(COMMENT_PAGE_MAX)
    .default(50)
    .openapi({ description: `Comments per page, 1-${COMMENT_PAGE_MAX} (default 50)` }),
});
export type ListCommentsQuery = z.infer<typeof listCommentsQuery>;

export const commentIdParams = z.object({ id: z.uuid("must be a comment id") });
