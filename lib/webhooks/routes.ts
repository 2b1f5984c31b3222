import { createRouter } from "../api/router";

export const webhooksRoutes = createRouter();
