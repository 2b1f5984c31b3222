/**
 * The documentation says what the code does, where a machine can tell: `.env.example` lists every setting of the
 * configuration schema once, with its default; the README's commands table lists every npm script; every relative
 * link of README.md and docs/*.md reaches a file (and a heading, when it names one); the modules page lists every
 * feature module; an operation count, wherever one is stated, is the OpenAPI document's; and docs/code-map.md names
 * the folder of every API route.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, test } from "vitest";
import { configSchema, loadConfig } from "./config";
import { MODULE_IDS } from "./modules/ids";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const DOCUMENTS = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs")).flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : [])),
];

/** Markdown without fenced code blocks and inline code, where links and headings are not what they look like. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "code");
}

/** GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

describe(".env.example", () => {
  const shape = configSchema.shape as Record<string, { parse(value: unknown): unknown }>;
  /** Every `NAME=value` line, and every `# NAME=value` line (commented out, so that a copy of the file sets nothing). */
  const lines = [...read(".env.example").matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, comment, name, value]) => ({
    commented: comment !== undefined,
    name: name!,
    value: value!,
  }));
  /** What the schema makes of a value; empty means unset, as in lib/config.ts. */
  const parsed = (name: string, value: string | undefined) => shape[name]!.parse(value === "" ? undefined : value);

  test("names every variable of the configuration schema exactly once, and nothing else", () => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line.name, (counts.get(line.name) ?? 0) + 1);
    const wrong = Object.keys(shape).filter((name) => counts.get(name) !== 1);
    expect(wrong.map((name) => `${name}: ${counts.get(name) ?? 0} times`)).toEqual([]);
    expect([...counts.keys()].filter((name) => !(name in shape))).toEqual([]);
  });

  test("shows each variable's default (a commented line of a setting without one may be an example)", () => {
    const wrong: string[] = [];
    for (const line of lines.filter((candidate) => candidate.name in shape)) {
      const byDefault = parsed(line.name, undefined);
      // A commented line of a setting without a default is an example; any other line shows the default.
      if (line.commented && byDefault === undefined) continue;
      if (!isDeepStrictEqual(parsed(line.name, line.value), byDefault)) {
        wrong.push(
          `${line.commented ? "# " : ""}${line.name}=${line.value}: the default is ${JSON.stringify(byDefault) ?? "unset"}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("README.md", () => {
  test("the commands table lists every npm script, and only those", () => {
    const readme = read("README.md");
    const section = readme.slice(
      readme.indexOf("\n## Commands\n"),
      readme.indexOf("\n## ", readme.indexOf("\n## Commands\n") + 1),
    );
    const listed = new Set([...section.matchAll(/^\| `npm (?:run )?([\w:-]+)`/gm)].map(([, name]) => name!));
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
    expect(scripts.filter((script) => !listed.has(script))).toEqual([]);
    expect([...listed].filter((name) => !scripts.includes(name))).toEqual([]);
  });

  test("is short enough to read to the end", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(210);
  });
});

describe("links", () => {
  test.each(DOCUMENTS)("every relative link of %s reaches a file, and a heading when it names one", (document) => {
    const broken: string[] = [];
    for (const [, target] of prose(read(document)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:...
      const [file, anchor] = target!.split("#") as [string, string | undefined];
      const resolved = file === "" ? document : path.join(path.dirname(document), decodeURIComponent(file));
      if (!existsSync(path.join(ROOT, resolved))) broken.push(`${target}: no file ${resolved}`);
      else if (anchor && resolved.endsWith(".md") && !anchorsOf(read(resolved)).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

test("docs/modules.md has a row for every feature module", () => {
  const rows = [...read("docs/modules.md").matchAll(/^\| ((?:`[\w-]+`(?:, )?)+) \|/gm)].flatMap(([, cell]) =>
    [...cell!.matchAll(/`([\w-]+)`/g)].map(([, id]) => id!),
  );
  expect([...rows].sort()).toEqual([...MODULE_IDS].sort());
});

test("an operation count stated in the documentation is the OpenAPI document's", async () => {
  // The document the API serves at /openapi.json, built in this process (no database is opened).
  const dataDir = mkdtempSync(path.join(tmpdir(), "spolu-docs-"));
  try {
    loadConfig({ JWT_SECRET: "docs-honesty-test-secret-of-32-characters", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const { createApiApp } = await import("../server/api");
    const openApi = createApiApp().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Spolu API", version: "1.0.0" } });
    const operations = Object.values(openApi.paths ?? {}).reduce((sum, item) => sum + Object.keys(item ?? {}).length, 0);
    expect(operations).toBeGreaterThan(100);
    const stated = DOCUMENTS.flatMap((document) =>
      [...read(document).matchAll(/\b(\d[\d,]*)\s+(?:API\s+|HTTP\s+)?operations\b/gi)].map(([whole, count]) => ({
        document,
        whole,
        count: Number(count!.replace(/,/g, "")),
      })),
    );
    expect(stated.filter((claim) => claim.count !== operations)).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

describe("docs/code-map.md", () => {
  /** A path's segments, every parameter (`:id`, `{provider}`) as `{}`. */
  const segments = (route: string) =>
    route
      .split("/")
      .filter(Boolean)
      .map((segment) => (/^(:|\{)/.test(segment) ? "{}" : segment));

  test("names, for every API route, the folder whose routes.ts declares it, and has no row no route needs", async () => {
    const rows = [...read("docs/code-map.md").matchAll(/^\| `(\/[^`]*)` \| `(lib\/[^`]+)` \|$/gm)].map(([, url, folder]) => ({
      url: url!,
      prefix: segments(url!),
      folder: folder!,
    }));
    expect(rows.length).toBeGreaterThan(30);
    const files = (readdirSync(path.join(ROOT, "lib"), { recursive: true }) as string[]).filter((file) =>
      file.endsWith(`${path.sep}routes.ts`),
    );
    const wrong = new Set<string>(); // a route with middleware is listed once per handler
    const used = new Set<string>();
    for (const file of files) {
      const folder = `lib/${path.dirname(file).split(path.sep).join("/")}`;
      const exported: Record<string, unknown> = await import(path.join(ROOT, "lib", file));
      for (const router of Object.values(exported)) {
        const routes = (router as { routes?: { method: string; path: string }[] } | null)?.routes;
        for (const { method, path: route } of Array.isArray(routes) ? routes : []) {
          if (method === "ALL") continue; // middleware
          const parts = segments(route);
          const row = rows
            .filter((candidate) => candidate.prefix.every((segment, index) => parts[index] === segment))
            .sort((a, b) => b.prefix.length - a.prefix.length)[0];
          if (!row) wrong.add(`${method} ${route} (${folder}): no row`);
          else if (row.folder !== folder)
            wrong.add(`${method} ${route}: row ${row.url} says ${row.folder}, declared in ${folder}`);
          else used.add(row.url);
        }
      }
    }
    expect([...wrong]).toEqual([]);
    expect(rows.filter((row) => !used.has(row.url)).map((row) => row.url)).toEqual([]);
  }, 60_000);
});
