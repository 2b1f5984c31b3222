import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { shareParameters } from "./client";

const dialect = new PgDialect();
const compiled = (query: ReturnType<typeof sql>) => shareParameters(dialect.sqlToQuery(query));

describe("shareParameters", () => {
  it("binds each placeholder name once, however often the statement uses it", () => {
    const user = sql.placeholder("userId");
    const query = compiled(
      sql`select 1 where a = ${user} and b < ${sql.placeholder("due")} or c = ${user} limit ${sql.placeholder("limit")}`,
    );
    expect(query.sql).toBe("select 1 where a = $1 and b < $2 or c = $1 limit $3");
    expect(query.params.map((param) => (param as { name: string }).name)).toEqual(["userId", "due", "limit"]);
  });

  it("keeps values that are not placeholders as parameters of their own", () => {
    const query = compiled(sql`select ${"x"}, ${sql.placeholder("a")}, ${"x"}, ${sql.placeholder("a")}`);
    expect(query.sql).toBe("select $1, $2, $3, $2");
    expect(query.params).toHaveLength(3);
  });

  it("leaves a statement alone when its text has a $n that is not one of its parameters", () => {
    const query = compiled(sql`select '$9' || ${sql.placeholder("a")} || ${sql.placeholder("a")}`);
    expect(query.sql).toBe("select '$9' || $1 || $2");
    expect(query.params).toHaveLength(2);
  });
});
