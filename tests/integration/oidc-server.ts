/**
 * A real OpenID Provider on loopback (the `oidc-provider` package, certified for OpenID Connect), for testing
 * sign-in end to end: discovery, the authorization endpoint with PKCE required, the token endpoint, ID Tokens
 * signed with its own key, UserInfo. Instead of a login page, its interaction route signs in the account the test
 * chose with `signInAs` and grants what was asked, then sends the browser on as a real provider would.
 *
 * The issuer (http://127.0.0.1:<port>) is known when this starts; clients are added afterwards, once the server
 * under test knows its own address, and the provider itself is built on the first request.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
// @ts-expect-error -- oidc-provider ships no type declarations; the few members used are typed below.
import { Provider as UntypedProvider } from "oidc-provider";

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  name?: string;
  /** Microsoft's "email domain owner verified" optional claim. */
  xmsEdov?: boolean;
}

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface OidcServer {
  /** For GOOGLE_ISSUER / MICROSOFT_ISSUER. */
  issuer: string;
  /** Registers a client; call before the first request reaches the provider. */
  addClient(client: OidcClient): void;
  /** The account (by subject) that the next login completes with; the claims it releases. */
  signInAs(subject: string, account: TestAccount): void;
  /** Every failed grant at the token endpoint, as the provider reported it (`invalid_grant`...). */
  grantErrors: string[];
  close(): Promise<void>;
}

interface Interaction {
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
  params: { client_id: string };
  session?: { accountId?: string };
}

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}

interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => Grant;
  on(event: "grant.error", listener: (ctx: unknown, error: { error?: string; message: string }) => void): void;
}

const ProviderClass = UntypedProvider as new (issuer: string, configuration: Record<string, unknown>) => Provider;

export async function startOidcServer(): Promise<OidcServer> {
  const clients: OidcClient[] = [];
  const accounts = new Map<string, TestAccount>();
  const grantErrors: string[] = [];
  let chosen: string | undefined;
  let provider: Provider | undefined;
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };

  function build(issuer: string): Provider {
    const built = new ProviderClass(issuer, {
      clients: clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        token_endpoint_auth_method: "client_secret_post",
      })),
      jwks: { keys: [signingKey] },
      cookies: { keys: [randomBytes(32).toString("hex")] },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      claims: { openid: ["sub"], email: ["email", "email_verified", "xms_edov"], profile: ["name"] },
      async findAccount(_ctx: unknown, sub: string) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          async claims() {
            return {
              sub,
              email: account.email,
              email_verified: account.emailVerified,
              name: account.name,
              ...(account.xmsEdov !== undefined && { xms_edov: account.xmsEdov }),
            };
          },
        };
      },
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
      renderError(ctx: { type: string; body: unknown }, out: unknown) {
        ctx.type = "json";
        ctx.body = out;
      },
    });
    built.on("grant.error", (_ctx, error) => grantErrors.push(error.error ?? error.message));
    return built;
  }

  /** The "login page": signs in the chosen account, then grants the scopes and claims asked for. */
  async function interact(oidc: Provider, req: IncomingMessage, res: ServerResponse) {
    const interaction = await oidc.interactionDetails(req, res);
    if (interaction.prompt.name === "login") {
      if (!chosen) throw new Error("oidc-server: call signInAs(subject, account) before signing in");
      await oidc.interactionFinished(req, res, { login: { accountId: chosen } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new oidc.Grant({ accountId: interaction.session!.accountId!, clientId: interaction.params.client_id });
    const { missingOIDCScope, missingOIDCClaims } = interaction.prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    await oidc.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  const server = createServer((req, res) => {
    provider ??= build(issuer);
    handle ??= provider.callback();
    if (req.url?.startsWith("/interaction/")) {
      interact(provider, req, res).catch((error: unknown) => {
        res.writeHead(500, { "Content-Type": "text/plain" }).end(String(error));
      });
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    grantErrors,
    addClient(client) {
      if (provider) throw new Error("oidc-server: add clients before the first request");
      clients.push(client);
    },
    signInAs(subject, account) {
      accounts.set(subject, account);
      chosen = subject;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
