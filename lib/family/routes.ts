import { createRouter } from "../api/router";

export const familyRoutes = createRouter();
