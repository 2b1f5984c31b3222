/**
 * The boundaries between domains (issue 20, STYLE.md §1), checked by dependency-cruiser in `npm run lint`:
 * - a domain (lib/<domain>/) may use another's service, schema and vocabulary, never its repo;
 * - no import cycle between files;
 * - nothing in lib/ imports a composition root: server.ts and server/ (the files that import every domain:
 *   server/api.ts mounts every domain's routes, server/jobs.ts lists the background jobs, server/subscribers.ts
 *   registers who reacts to which event).
 * The violations left when the rules came (2026-11-28: 57 repo imports, 1 file cycle, 3 imports of a
 * composition root) are listed in .dependency-cruiser-known-violations.json and not reported; a new one fails the
 * lint. The list only shrinks: after removing some, write it again with
 *   npx depcruise-baseline lib server server.ts --config .dependency-cruiser.cjs > .dependency-cruiser-known-violations.json
 * Not checked yet: cycles between domains (folders). dependency-cruiser's `scope: "folder"` reports 197 cycle paths
 * (2026-11-28), through the base as much as through the domains: lib/config.ts reads lib/modules' ids while
 * lib/modules reads the configuration; lib/api resolves the actor through lib/auth, whose routes use lib/api;
 * lib/db/schema types two columns with lib/reviews' vocabulary; and the membership domains call each other's
 * services and repos (tasks, groups, family, teams, projects, invitations: the one membership module issue 20 asks
 * for). Its baseline does not match folder violations (17.4.3), so that rule comes once they are untangled.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-other-domains-repo",
      comment: "A domain reads and writes another domain's data through its service, never its repo.",
      severity: "error",
      from: { path: "^lib/([^/]+)/" },
      to: { path: "^lib/([^/]+)/repo\\.ts$", pathNot: "^lib/$1/" },
    },
    {
      name: "no-file-cycles",
      comment: "Files import each other in a cycle: one of them should not need the other.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-composition-roots-in-lib",
      comment: "A composition root imports every domain; lib/ must not depend on one.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(server/|server\\.ts$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.tsx?$|^tests/|^e2e/|^bench/)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
