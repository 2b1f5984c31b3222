import pg from "pg";

/**
 * The migrated database each PostgreSQL test file copies (CREATE DATABASE ... TEMPLATE). TEST_TEMPLATE_DATABASE
 * names another one, so that checkouts with different migrations can run their tests on one server at once.
 */
export const TEMPLATE_DATABASE = /^[a-z_][a-z0-9_]*$/.test(process.env.TEST_TEMPLATE_DATABASE ?? "")
  ? process.env.TEST_TEMPLATE_DATABASE!
  : "spolu_test_template";

/** The same server as `url`, another database. */
export function adminUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function withAdminClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
