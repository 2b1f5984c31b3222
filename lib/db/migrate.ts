/** `npm run db:migrate`: applies pending migrations to the configured database, then exits. */
import { ConfigError, config, loadConfig } from "../config";
import { closeDatabase, openDatabase } from "./client";

try {
  loadConfig();
  await openDatabase();
  await closeDatabase();
  process.stdout.write(`Migrations applied (${config().embedded ? "embedded PGlite" : "PostgreSQL"}).\n`);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
