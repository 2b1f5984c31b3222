// ESLint flat config. Besides typescript-eslint's recommended rules it enforces the import direction of
// STYLE.md §1 (`app → components → lib/<domain> → lib/{db,api,events,jobs,config}`) with core
// `no-restricted-imports`, so that no extra plugin is needed:
//   - lib/** imports nothing from app/, components/, server.ts or server/ (the composition roots);
//     components/** nothing from app/, server.ts or server/; app/** nothing from server.ts or server/ but the API
//     route handler, which hands requests to the Hono app (server/api.ts);
//   - Drizzle, pg and PGlite only in lib/**/repo.ts and lib/db/** (and tests, benchmarks, server.ts wiring);
//   - socket.io (server side) only in lib/realtime/** and server.ts;
//   - unit tests (*.test.ts), tests/**, e2e/** and bench/** may import anything.
// ESLint replaces (does not merge) a rule's options when several config objects match a file, so the file
// groups below are disjoint and each gets its complete list of restrictions from `importRules()`.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

const CODE = "{ts,tsx,mts,cts,js,mjs,cjs}";

const DATABASE = {
  regex: "^(drizzle-orm|drizzle-kit|pg|@electric-sql/pglite)(/|$)",
  message: "Only lib/<domain>/repo.ts and lib/db/** talk to the database (STYLE.md §1).",
};
const SOCKET = {
  regex: "^(socket\\.io|@socket\\.io/.+)(/|$)",
  message: "Only lib/realtime/** and server.ts use socket.io; services publish through lib/events (STYLE.md §4).",
};

/**
 * Imports of the top-level `targets` (folders; `server` means server.ts and server/) through the `@/` alias or a
 * relative path that climbs to the root. No folder inside lib/ or components/ bears those names, so
 * `../app` can only mean the top-level one (while lib/api's `./app` stays allowed).
 */
function upward(targets, message) {
  const names = targets.map((t) => (t === "server" ? "server(\\.ts$|/|$)" : `${t}(/|$)`)).join("|");
  return [
    { regex: `^@/(${names})`, message },
    { regex: `^(\\.\\./)+(${names})`, message },
  ];
}

const LIB_UPWARD = upward(
  ["app", "components", "server"],
  "lib/ never imports app/, components/, server.ts or server/: imports flow server → app → components → lib (STYLE.md §1).",
);
const COMPONENTS_UPWARD = upward(
  ["app", "server"],
  "components/ never imports app/, server.ts or server/: imports flow server → app → components → lib (STYLE.md §1).",
);
const APP_UPWARD = upward(
  ["server"],
  "app/ never imports server.ts or server/ (only the API route handler hands requests to server/api.ts) (STYLE.md §1).",
);
/** The one file of app/ that imports a composition root: `next start` without server.ts answers the API there. */
const APP_API_ROUTE = "app/api/v1/[[][[]...route[]][]]/route.ts";

function importRules({ upwardPatterns = [], database = false, socket = false }) {
  return {
    "no-restricted-imports": [
      "error",
      { patterns: [...upwardPatterns, ...(database ? [] : [DATABASE]), ...(socket ? [] : [SOCKET])] },
    ],
  };
}

const LIB = `lib/**/*.${CODE}`;
const LIB_REPO = ["lib/**/repo.ts", `lib/db/**/*.${CODE}`];
const LIB_REALTIME = `lib/realtime/**/*.${CODE}`;

function layerConfigs() {
  return [
    {
      name: "spolu/imports/app",
      files: [`app/**/*.${CODE}`, `i18n/**/*.${CODE}`, "proxy.ts"],
      ignores: [APP_API_ROUTE],
      rules: importRules({ upwardPatterns: APP_UPWARD }),
    },
    {
      name: "spolu/imports/app-api-route",
      files: [APP_API_ROUTE],
      rules: importRules({}),
    },
    {
      name: "spolu/imports/components",
      files: [`components/**/*.${CODE}`],
      rules: importRules({ upwardPatterns: COMPONENTS_UPWARD }),
    },
    {
      name: "spolu/imports/lib",
      files: [LIB],
      ignores: [...LIB_REPO, LIB_REALTIME],
      rules: importRules({ upwardPatterns: LIB_UPWARD }),
    },
    {
      name: "spolu/imports/lib-database",
      files: LIB_REPO,
      rules: importRules({ upwardPatterns: LIB_UPWARD, database: true }),
    },
    {
      name: "spolu/imports/lib-realtime",
      files: [LIB_REALTIME],
      ignores: LIB_REPO,
      rules: importRules({ upwardPatterns: LIB_UPWARD, socket: true }),
    },
  ];
}

const FOCUSED_TEST = "A focused test skips the rest of the suite; remove `.only` before committing.";

export default defineConfig(
  globalIgnores(
    [
      ".next/**",
      "node_modules/**",
      "data/**",
      "db/migrations/**",
      "test-results/**",
      "playwright-report/**",
      "coverage/**",
      "next-env.d.ts",
    ],
    "spolu/ignores",
  ),
  {
    name: "spolu/files",
    files: [`**/*.${CODE}`],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: "spolu/base",
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      "no-restricted-properties": [
        "error",
        ...["it", "test", "describe", "suite", "bench"].map((object) => ({
          object,
          property: "only",
          message: FOCUSED_TEST,
        })),
      ],
      "no-restricted-syntax": [
        "error",
        {
          // Chained `.only`: test.describe.only (Playwright), describe.concurrent.only, test.concurrent.only.
          selector:
            "MemberExpression[property.name='only'][object.type='MemberExpression'][object.object.name=/^(it|test|describe|suite|bench)$/]",
          message: FOCUSED_TEST,
        },
      ],
    },
  },
  ...layerConfigs(),
  {
    name: "spolu/lib-logging",
    files: [`lib/**/*.${CODE}`],
    ignores: ["lib/**/*.test.ts", "lib/log.ts"],
    // Log through lib/log.ts (one JSON line per event, LOG_LEVEL honoured).
    rules: { "no-console": "error" },
  },
  {
    // The web app calls the API through the typed client only (lib/api-client/client.ts), so that a changed route
    // schema fails `npm run typecheck` at the call instead of breaking the page.
    name: "spolu/typed-api-client",
    files: [`app/**/*.${CODE}`, `components/**/*.${CODE}`],
    rules: {
      "no-restricted-globals": [
        "error",
        ...["fetch", "XMLHttpRequest"].map((name) => ({
          name,
          message: "Call the API through `api` of lib/api-client/client.ts (typed by /openapi.json), not by hand.",
        })),
      ],
    },
  },
  {
    name: "spolu/tests",
    files: ["**/*.test.ts", "**/*.test.tsx", `tests/**/*.${CODE}`, `e2e/**/*.${CODE}`, `bench/**/*.${CODE}`],
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    name: "spolu/node-scripts",
    files: [`**/*.{js,mjs,cjs}`],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // CommonJS configuration files (.dependency-cruiser.cjs).
    name: "spolu/commonjs",
    files: [`**/*.cjs`],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
);
