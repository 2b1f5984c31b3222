import { z } from "@hono/zod-openapi";

/** Which assistant answered (`AnsweredBy` in provider.ts), as every AI answer of the API carries it. */
export const answeredBySchema = z
  .union([
    z.object({ provider: z.literal("built-in") }),
    z.object({ provider: z.literal("openai-compatible"), model: z.string().openapi({ description: "The endpoint's model" }) }),
  ])
  .openapi("AnsweredBy", {
    description:
      "Which assistant answered: `built-in` (rule-based, from your own data; no AI service involved) or " +
      "`openai-compatible` (the configured AI endpoint) with its model.",
  });
