import { createRouter } from "../api/router";

export const oauthRoutes = createRouter();
