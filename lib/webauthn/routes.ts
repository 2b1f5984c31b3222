import { createRouter } from "../api/router";

export const webauthnRoutes = createRouter();
