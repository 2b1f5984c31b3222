import { createRouter } from "../api/router";

/** The activity monitor: phone usage reported by clients, its summaries and analysis (issue 8). */
export const activityRoutes = createRouter();
