import { createRouter } from "../api/router";

export const notificationsRoutes = createRouter();
