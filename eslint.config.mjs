// ESLint flat config. Besides typescript-eslint's recommended rules it enforces the import direction of
// STYLE.md §1 (`app → components → lib/<domain> → lib/{db,api,events,jobs,config}`) with core
// `no-restricted-imports`, so that no extra plugin is needed:
//   - lib/** imports nothing from app/, components/ or server.ts;  components/** nothing from app/ or server.ts;
//   - Drizzle, pg and PGlite only in lib/**/repo.ts and lib/db/** (and tests, benchmarks, server.ts wiring);
//   - socket.io (server side) only in lib/realtime/** and server.ts;
//   - unit tests (*.test.ts), tests/**, e2e/** and bench/** may import anything.
// ESLint replaces (does not merge) a rule's options when several config objects match a file, so every
// file group below gets its complete list of restrictions from `importRestrictions()`.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

const CODE = "{ts,tsx,mts,cts,js,mjs,cjs}";
/** Deepest nesting the layer rules cover: files up to 8 folders below the root (lib/ and 7 more). */
const MAX_DEPTH = 8;

const DATABASE = {
  regex: "^(drizzle-orm|drizzle-kit|pg|@electric-sql/pglite)(/|$)",
  message: "Only lib/<domain>/repo.ts and lib/db/** talk to the database (STYLE.md §1).",
};
const SOCKET = {
  regex: "^(socket\\.io|@socket\\.io/.+)(/|$)",
  message: "Only lib/realtime/** and server.ts use socket.io; services publish through lib/events (STYLE.md §4).",
};

/**
 * Patterns that catch an import of the top-level `targets` (folders, or `server` for server.ts) through the
 * `@/` alias or through a relative path from a file `depth` folders below the repository root. A relative
 * path is matched by its exact number of `../`, so that lib/api/app.ts is not taken for the app/ folder.
 */
function upward(targets, depth, message) {
  const names = targets.map((t) => (t === "server" ? "server(\\.ts)?$" : `${t}(/|$)`)).join("|");
  return [
    { regex: `^@/(${names})`, message },
    { regex: `^(\\./)?(\\.\\./){${depth}}(${names})`, message },
  ];
}

function importRestrictions({ depth = 0, upwardTargets = [], upwardMessage = "", database = false, socket = false }) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          ...(depth > 0 && upwardTargets.length ? upward(upwardTargets, depth, upwardMessage) : []),
          ...(database ? [] : [DATABASE]),
          ...(socket ? [] : [SOCKET]),
        ],
      },
    ],
  };
}

/** The files exactly `depth` folders below the repository root, under `root`, named like `leaf`. */
function atDepth(root, depth, leaf = `*.${CODE}`) {
  return `${root}/${"*/".repeat(depth - 1)}${leaf}`;
}

const LIB_UPWARD = "lib/ never imports app/, components/ or server.ts: imports flow app → components → lib (STYLE.md §1).";
const COMPONENTS_UPWARD = "components/ never imports app/ or server.ts: imports flow app → components → lib (STYLE.md §1).";

function layerConfigs() {
  const configs = [
    {
      name: "spolu/imports/app",
      files: [`app/**/*.${CODE}`, `i18n/**/*.${CODE}`, `proxy.ts`],
      rules: importRestrictions({}),
    },
  ];
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    const lib = { depth, upwardTargets: ["app", "components", "server"], upwardMessage: LIB_UPWARD };
    configs.push(
      {
        name: `spolu/imports/components/depth-${depth}`,
        files: [atDepth("components", depth)],
        rules: importRestrictions({ depth, upwardTargets: ["app", "server"], upwardMessage: COMPONENTS_UPWARD }),
      },
      { name: `spolu/imports/lib/depth-${depth}`, files: [atDepth("lib", depth)], rules: importRestrictions(lib) },
      {
        name: `spolu/imports/lib-repo/depth-${depth}`,
        files: [atDepth("lib", depth, "repo.ts")],
        rules: importRestrictions({ ...lib, database: true }),
      },
    );
    if (depth >= 2) {
      configs.push(
        {
          name: `spolu/imports/lib-db/depth-${depth}`,
          files: [atDepth("lib", depth).replace(/^lib\/\*\//, "lib/db/")],
          rules: importRestrictions({ ...lib, database: true }),
        },
        {
          name: `spolu/imports/lib-realtime/depth-${depth}`,
          files: [atDepth("lib", depth).replace(/^lib\/\*\//, "lib/realtime/")],
          rules: importRestrictions({ ...lib, socket: true }),
        },
        {
          name: `spolu/imports/lib-realtime-repo/depth-${depth}`,
          files: [atDepth("lib", depth, "repo.ts").replace(/^lib\/\*\//, "lib/realtime/")],
          rules: importRestrictions({ ...lib, database: true, socket: true }),
        },
      );
    }
  }
  return configs;
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
);
