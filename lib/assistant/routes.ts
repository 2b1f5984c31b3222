import { createRouter } from "../api/router";

/** The assistant: chat with task context, the daily briefing and the weekly report (issue 8). */
export const assistantRoutes = createRouter();
