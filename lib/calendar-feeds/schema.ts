import { z } from "@hono/zod-openapi";

export const calendarFeedIdParams = z.object({
  id: z
    .uuid("must be a calendar feed id")
    .openapi({ description: "The feed's id", example: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b" }),
});

export const calendarFileParams = z.object({
  file: z
    .string()
    .regex(/^[\w-]{43}\.ics$/, "must be the feed's secret followed by .ics")
    .openapi({
      description: "The feed's secret (43 characters, from the URL `POST /calendar-feeds` answered) and `.ics`",
      example: "Xq3vN0bYk8pQ2rT6wZ1cF5hJ9mL4sD7gA0eR3uI8oK2.ics",
    }),
});

export const createCalendarFeedInput = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .default("Calendar")
      .openapi({ description: "What you call it, to tell your feeds apart (default `Calendar`)", example: "Phone" }),
  })
  .openapi("CreateCalendarFeed", { example: { name: "Phone" } });
export type CreateCalendarFeedInput = z.infer<typeof createCalendarFeedInput>;

export const calendarFeedOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().openapi({ description: "When a calendar app last fetched it (to within 5 minutes)" }),
  })
  .openapi("CalendarFeed", {
    example: {
      id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b",
      name: "Phone",
      createdAt: "2026-11-27T10:00:00.000Z",
      lastUsedAt: "2026-11-27T12:05:00.000Z",
    },
  });
export type CalendarFeedOutput = z.infer<typeof calendarFeedOutput>;

export const createdCalendarFeedOutput = calendarFeedOutput
  .extend({
    url: z.url().openapi({
      description:
        "The feed's address, with its secret: subscribe to it in a calendar app. Shown only now (only a hash of the " +
        "secret is kept); whoever has it sees your open tasks' titles and due dates until you revoke the feed.",
    }),
  })
  .openapi("CreatedCalendarFeed", {
    example: {
      id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b",
      name: "Phone",
      createdAt: "2026-11-27T10:00:00.000Z",
      lastUsedAt: null,
      url: "https://spolu.example.com/calendar/Xq3vN0bYk8pQ2rT6wZ1cF5hJ9mL4sD7gA0eR3uI8oK2.ics",
    },
  });
export type CreatedCalendarFeedOutput = z.infer<typeof createdCalendarFeedOutput>;

export const calendarFeedListOutput = z.object({ items: z.array(calendarFeedOutput) }).openapi("CalendarFeedList", {
  example: {
    items: [
      {
        id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b",
        name: "Phone",
        createdAt: "2026-11-27T10:00:00.000Z",
        lastUsedAt: "2026-11-27T12:05:00.000Z",
      },
    ],
  },
});
export type CalendarFeedListOutput = z.infer<typeof calendarFeedListOutput>;
