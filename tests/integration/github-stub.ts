/**
 * A local server speaking the part of GitHub's OAuth web flow and REST API that sign-in uses
 * (docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps):
 *
 * - `GET /login/oauth/authorize?client_id&redirect_uri&scope&state&code_challenge&code_challenge_method=S256`:
 *   where GitHub would ask the user, signs in the user the test chose and redirects to `redirect_uri` with `code`
 *   and `state` (an unregistered redirect_uri: `error=redirect_uri_mismatch`).
 * - `POST /login/oauth/access_token` (form body `client_id`, `client_secret`, `code`, `redirect_uri`,
 *   `code_verifier`; or the client in HTTP Basic): like GitHub, answers **200** even for errors, as JSON with
 *   `Accept: application/json` (`{ access_token, token_type: "bearer", scope }` or `{ error, error_description,
 *   error_uri }`) and form-encoded otherwise. Codes work once and for 10 minutes; the PKCE verifier must match.
 * - `GET <api>/user` and `GET <api>/user/emails` (`Authorization: Bearer|token <token>`): the profile and the email
 *   list (`{ email, primary, verified, visibility }`); a bad token 401 `Bad credentials`; the emails without the
 *   `user:email` scope 404, as GitHub does. The API lives under `/api/v3` (GitHub Enterprise's layout), so that
 *   GITHUB_API_URL with a path is exercised.
 * - `POST /_stub/sign-in-as` (JSON: a GithubUser): `signInAs` for a stub in another process (the end-to-end runs,
 *   e2e/github-stub-server.ts); not part of GitHub.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: "public" | "private" | null;
}

export interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  emails: GithubEmail[];
}

export interface GithubClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface GithubStub {
  /** For GITHUB_BASE_URL. */
  url: string;
  /** For GITHUB_API_URL. */
  apiUrl: string;
  addClient(client: GithubClient): void;
  /** The user who "clicks Authorize" next. */
  signInAs(user: GithubUser): void;
  /** Every token request's parameters, as received. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  user: GithubUser;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  used: boolean;
}

const API_PREFIX = "/api/v3";
const DOCS = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export async function startGithubStub(options: { port?: number } = {}): Promise<GithubStub> {
  const clients = new Map<string, GithubClient>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { user: GithubUser; scopes: string[] }>();
  const tokenRequests: URLSearchParams[] = [];
  let chosen: GithubUser | undefined;

  function authorize(url: URL, response: ServerResponse) {
    const params = url.searchParams;
    const client = clients.get(params.get("client_id") ?? "");
    if (!client) return json(response, 404, { message: "Not Found" });
    const redirect = new URL(client.redirectUri);
    const state = params.get("state");
    if (params.has("redirect_uri") && params.get("redirect_uri") !== client.redirectUri) {
      redirect.searchParams.set("error", "redirect_uri_mismatch");
      redirect.searchParams.set(
        "error_description",
        "The redirect_uri MUST match the registered callback URL for this application.",
      );
      if (state) redirect.searchParams.set("state", state);
      response.writeHead(302, { Location: redirect.href }).end();
      return;
    }
    if (!chosen) return json(response, 500, { message: "github-stub: call signInAs(user) before signing in" });
    const method = params.get("code_challenge_method");
    if (params.has("code_challenge") && method !== "S256") return json(response, 400, { message: "Only S256 is supported" });
    const code = randomBytes(10).toString("hex");
    codes.set(code, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      user: chosen,
      scopes: (params.get("scope") ?? "").split(/[\s,]+/).filter(Boolean),
      codeChallenge: params.get("code_challenge"),
      expiresAt: Date.now() + 10 * 60 * 1000,
      used: false,
    });
    redirect.searchParams.set("code", code);
    if (state) redirect.searchParams.set("state", state);
    response.writeHead(302, { Location: redirect.href }).end();
  }

  async function accessToken(request: IncomingMessage, response: ServerResponse) {
    const raw = await readBody(request);
    const params = (request.headers["content-type"] ?? "").includes("application/json")
      ? new URLSearchParams(JSON.parse(raw || "{}") as Record<string, string>)
      : new URLSearchParams(raw);
    tokenRequests.push(params);
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent);
      params.set("client_id", id ?? "");
      params.set("client_secret", secret ?? "");
    }
    const asJson = (request.headers.accept ?? "").includes("application/json");
    const answer = (body: Record<string, string>) =>
      asJson
        ? json(response, 200, body)
        : response
            .writeHead(200, { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" })
            .end(new URLSearchParams(body).toString());
    const fail = (error: string, description: string) =>
      answer({ error, error_description: description, error_uri: `${DOCS}#${error.replaceAll("_", "-")}` });

    const client = clients.get(params.get("client_id") ?? "");
    if (!client || client.clientSecret !== params.get("client_secret")) {
      return fail("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
    }
    const issued = codes.get(params.get("code") ?? "");
    if (!issued || issued.used || issued.expiresAt < Date.now() || issued.clientId !== client.clientId) {
      return fail("bad_verification_code", "The code passed is incorrect or expired.");
    }
    issued.used = true;
    if (params.has("redirect_uri") && params.get("redirect_uri") !== issued.redirectUri) {
      return fail("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.");
    }
    if (issued.codeChallenge !== null && s256(params.get("code_verifier") ?? "") !== issued.codeChallenge) {
      return fail("bad_verification_code", "The code_verifier does not match the code_challenge.");
    }
    const token = `gho_${randomBytes(18).toString("base64url")}`;
    tokens.set(token, { user: issued.user, scopes: issued.scopes });
    answer({ access_token: token, token_type: "bearer", scope: issued.scopes.join(",") });
  }

  function api(path: string, request: IncomingMessage, response: ServerResponse) {
    const token = /^(?:Bearer|token) (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const grant = token ? tokens.get(token) : undefined;
    if (!grant)
      return json(response, 401, {
        message: "Bad credentials",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      });
    const { user, scopes } = grant;
    if (path === "/user") {
      const publicEmail = user.emails.find((entry) => entry.visibility === "public")?.email ?? null;
      return json(response, 200, {
        login: user.login,
        id: user.id,
        node_id: `U_${user.id}`,
        avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
        type: "User",
        name: user.name,
        email: publicEmail,
      });
    }
    if (path === "/user/emails") {
      if (!scopes.includes("user:email") && !scopes.includes("user")) {
        return json(response, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" });
      }
      return json(
        response,
        200,
        user.emails.map((entry) => ({ visibility: null, ...entry })),
      );
    }
    json(response, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://github.invalid");
    if (request.method === "GET" && url.pathname === "/login/oauth/authorize") return authorize(url, response);
    if (request.method === "POST" && url.pathname === "/login/oauth/access_token") {
      accessToken(request, response).catch((error: unknown) => json(response, 500, { message: String(error) }));
      return;
    }
    if (request.method === "GET" && url.pathname.startsWith(`${API_PREFIX}/`))
      return api(url.pathname.slice(API_PREFIX.length), request, response);
    if (request.method === "POST" && url.pathname === "/_stub/sign-in-as") {
      readBody(request)
        .then((raw) => {
          chosen = JSON.parse(raw) as GithubUser;
          response.writeHead(204).end();
        })
        .catch((error: unknown) => json(response, 400, { message: String(error) }));
      return;
    }
    json(response, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiUrl: `${url}${API_PREFIX}`,
    tokenRequests,
    addClient(client) {
      clients.set(client.clientId, client);
    },
    signInAs(user) {
      chosen = user;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
