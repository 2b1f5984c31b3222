/**
 * Builds one migrated database that every integration test file starts from a copy of:
 * a PGlite data directory dump (creating PGlite costs seconds, loading a dump under one), or, with
 * DATABASE_URL, a PostgreSQL template database.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { loadConfig } from "../../lib/config";
import { closeDatabase, openDatabase } from "../../lib/db/client";
import { TEMPLATE_DATABASE, adminUrl, withAdminClient } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "spolu-template-"));
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    await withAdminClient(databaseUrl, async (client) => {
      await client.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
      await client.query(`create database ${TEMPLATE_DATABASE}`);
    });
    const url = adminUrl(databaseUrl, TEMPLATE_DATABASE);
    loadConfig({ ...process.env, DATABASE_URL: url, DATA_DIR: dir, JWT_SECRET: "template-".repeat(4) });
    await openDatabase();
    await closeDatabase();
    project.provide("pgliteTemplate", "");
  } else {
    loadConfig({ ...process.env, DATA_DIR: dir });
    const pglite = new PGlite();
    await openDatabase({ pglite });
    const dump = await pglite.dumpDataDir("none");
    await closeDatabase();
    const file = path.join(dir, "template.tar");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide("pgliteTemplate", file);
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
