import pg from "pg";

/** The migrated database each PostgreSQL test file copies (CREATE DATABASE ... TEMPLATE). */
export const TEMPLATE_DATABASE = "spolu_test_template";

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
