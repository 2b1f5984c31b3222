/**
 * `npm run db:migrate`: applies pending migrations to the configured database, then exits. It signs nothing, so
 * it needs no JWT_SECRET, even on PostgreSQL.
 */
import { ConfigError, config, loadConfig, readDotEnvFile } from "../config";
import { closeDatabase, openDatabase } from "./client";

try {
  readDotEnvFile();
  loadConfig(process.env, "migrate");
  await openDatabase();
  await closeDatabase();
  process.stdout.write(`Migrations applied (${config().embedded ? "embedded PGlite" : "PostgreSQL"}).\n`);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
