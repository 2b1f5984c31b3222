import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Connects to /ws and answers "connected" or the refusal's message. */
async function connect(options: { token?: string; origin?: string; cookie?: string }): Promise<string> {
  const headers: Record<string, string> = {};
  if (options.origin) headers.Origin = options.origin;
  if (options.cookie) headers.Cookie = options.cookie;
  const socket: Socket = io(server.url, {
    path: "/ws",
    transports: ["websocket"],
    auth: options.token ? { token: options.token } : {},
    extraHeaders: headers,
    reconnection: false,
    timeout: 5000,
  });
  try {
    return await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", (error) => resolve(error.message));
    });
  } finally {
    socket.disconnect();
  }
}

describe("GET /ws (socket.io)", () => {
  test("refuses a connection without a valid token", async () => {
    expect(await connect({})).toBe("unauthenticated");
    expect(await connect({ token: "forged.token.value" })).toBe("unauthenticated");
  });

  test("accepts a valid token in the handshake or the session cookie", async () => {
    const { token } = await registerUser(server);
    expect(await connect({ token })).toBe("connected");
    expect(await connect({ cookie: `spolu_session=${token}` })).toBe("connected");
  });

  test("refuses a token revoked by signing out everywhere", async () => {
    const { token } = await registerUser(server);
    expect((await server.request("/auth/logout?everywhere=true", { method: "POST", token })).status).toBe(204);
    expect(await connect({ token })).toBe("unauthenticated");
  });

  test("refuses a browser from another origin", async () => {
    const { token } = await registerUser(server);
    expect(await connect({ token, origin: "http://evil.test" })).not.toBe("connected");
    expect(await connect({ token, origin: server.url })).toBe("connected");
  });
});
