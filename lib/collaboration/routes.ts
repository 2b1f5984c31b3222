import { createRouter } from "../api/router";

export const collaborationRoutes = createRouter();
