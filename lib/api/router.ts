import { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "./env";
import { validationError } from "./problem";

/** A router for one domain's routes: invalid input becomes a 400 problem naming each bad field. */
export function createRouter() {
  return new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });
}
