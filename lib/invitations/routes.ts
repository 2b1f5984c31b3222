import { createRouter } from "../api/router";

export const invitationsRoutes = createRouter();
