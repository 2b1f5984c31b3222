/**
 * The one table of API paths. server.ts uses `toApiPath` to hand requests straight to the Hono app;
 * next.config.ts builds its rewrites from `apiRewrites`, so both serve exactly the same paths.
 *
 * Every route lives under `/api/v1`. The interface spec also names paths at the site root
 * (`/auth/login`, `/tasks`, `/errors/report`, ...): each alias below answers exactly like its
 * `/api/v1` twin. Everything else (pages, `/docs`, `/invite/:token`) belongs to Next.
 */
export const API_PREFIX = "/api/v1";

interface RootAlias {
  /** A path with `:param` segments. */
  readonly path: string;
  /** Whether everything below the path is an API path too. */
  readonly subtree: boolean;
}

const ROOT_ALIASES: readonly RootAlias[] = [
  { path: "/auth", subtree: true },
  { path: "/webauthn", subtree: true },
  { path: "/tasks", subtree: true },
  { path: "/groups", subtree: true },
  { path: "/notification-prefs", subtree: true },
  { path: "/invitations", subtree: true },
  { path: "/invite/:token/accept", subtree: false },
  { path: "/delete-account", subtree: false },
  { path: "/email", subtree: true },
  { path: "/errors", subtree: true },
  { path: "/erp", subtree: true },
  { path: "/openapi.json", subtree: false },
  { path: "/healthz", subtree: false },
  { path: "/readyz", subtree: false },
  // A calendar feed's file (lib/calendar-feeds): the address calendar apps subscribe to.
  { path: "/calendar/:file", subtree: false },
];

const aliasPattern = new RegExp(
  `^(?:${ROOT_ALIASES.map(({ path, subtree }) => path.replace(/:[a-zA-Z]+/g, "[^/]+") + (subtree ? "(?:/.*)?" : "")).join(
    "|",
  )})$`,
);

/** The canonical `/api/v1/...` path for a request path, or null when Next should serve it. */
export function toApiPath(pathname: string): string | null {
  if (pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`)) return pathname;
  return aliasPattern.test(pathname) ? API_PREFIX + pathname : null;
}

/** Next.js rewrites for the root aliases, for when Next alone serves the app. */
export function apiRewrites(): { source: string; destination: string }[] {
  return ROOT_ALIASES.flatMap(({ path, subtree }) => {
    const exact = { source: path, destination: API_PREFIX + path };
    return subtree ? [exact, { source: `${path}/:rest+`, destination: `${API_PREFIX}${path}/:rest+` }] : [exact];
  });
}
