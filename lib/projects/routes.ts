import { createRouter } from "../api/router";

export const projectsRoutes = createRouter();
