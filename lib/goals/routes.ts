import { createRouter } from "../api/router";

/** Goals, their progress reports and study plans (issue 8). */
export const goalsRoutes = createRouter();
