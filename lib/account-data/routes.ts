import { createRouter } from "../api/router";

export const accountDataRoutes = createRouter();
