/** Every table, for Drizzle's relational queries and drizzle-kit. */
export * from "./users";
export * from "./error-logs";
export * from "./tasks";
export * from "./teams";
export * from "./projects";
export * from "./family";
export * from "./collaboration";
export * from "./invitations";
export * from "./events";
export * from "./notifications";
export * from "./push";
export * from "./webhooks";
export * from "./email";
export * from "./auth";
