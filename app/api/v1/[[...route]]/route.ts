import { apiApp } from "@/lib/api/app";

/** When Next alone serves the app, the same Hono API answers here (server.ts skips Next for these paths). */
const handle = (request: Request) => apiApp().fetch(request);

export { handle as DELETE, handle as GET, handle as HEAD, handle as OPTIONS, handle as PATCH, handle as POST, handle as PUT };
export const dynamic = "force-dynamic";
