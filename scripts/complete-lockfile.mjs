// Restores package-lock.json entries for other platforms' optional binaries (@next/swc-darwin-*,
// @swc/core-win32-*...). When the registry an install used does not serve those packages, npm leaves
// them out of the lockfile, and `npm ci` then refuses the lockfile as out of sync. Each entry added here
// carries the package's os/cpu, so npm skips it on other machines without fetching anything.
// Run `npm run lock:complete` after `npm install` changes the lockfile.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));

const OS = ["darwin", "win32", "linux", "freebsd", "android"];
const CPU = ["arm64", "x64", "ia32", "ppc64", "s390x", "riscv64", "arm"];
function platform(name) {
  const part = name.split("/").pop();
  const os = OS.find((candidate) => part.includes(candidate));
  const cpu = CPU.find((candidate) => new RegExp(`(^|-)${candidate}(-|$)`).test(part));
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }) };
}

let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = key ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[`node_modules/${name}`] || lock.packages[nested]) continue;
    lock.packages[`node_modules/${name}`] = { version, optional: true, ...platform(name) };
    added++;
  }
}
const [root, ...rest] = Object.entries(lock.packages);
lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => a.localeCompare(b, "en"))]);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added ? `package-lock.json: added ${added} platform entries` : "package-lock.json: complete");
