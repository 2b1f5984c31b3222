/**
 * The topology suite serves the pages too (SERVE_PAGES defaults to true), so it needs a production build: made
 * here once when there is none, instead of by each process (`npm start` would build on first start, and two
 * processes starting together would build at the same time).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export default function setup() {
  if (existsSync(path.join(".next", "BUILD_ID"))) return;
  const build = spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error(`next build failed (${build.status})`);
}
