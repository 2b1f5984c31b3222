/** Every table, for Drizzle's relational queries and drizzle-kit. */
export * from "./users";
export * from "./error-logs";
export * from "./tasks";
export * from "./teams";
