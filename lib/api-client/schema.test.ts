import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { generateApiTypes, SCHEMA_FILE } from "../../scripts/api-types";

test("lib/api-client/schema.ts is what the current routes generate (else run `npm run api:types` and commit it)", async () => {
  // A changed route schema without regenerated types would leave the web app type-checked against the old API.
  const committed = readFileSync(SCHEMA_FILE, "utf8").split("\n");
  const generated = (await generateApiTypes()).split("\n");
  const line = generated.findIndex((text, index) => committed[index] !== text);
  const differs = line === -1 ? committed.length !== generated.length : true;
  expect(differs ? { line: line + 1, committed: committed[line], generated: generated[line] } : null).toBeNull();
}, 120_000);
