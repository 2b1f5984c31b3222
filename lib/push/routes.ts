import { createRouter } from "../api/router";

export const pushRoutes = createRouter();
