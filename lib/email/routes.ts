import { createRouter } from "../api/router";

export const emailRoutes = createRouter();
