/**
 * The account-data registry: for every table of the schema (lib/db/schema/all.ts), which of its rows and columns are
 * a user's, how they go into the export (GET /auth/export-data) and what becomes of them when the user deletes their
 * account (DELETE /auth/delete-account). `registryProblems` compares it with the schema as Drizzle describes it
 * (`schemaShapes` in repo.ts walks `getTableConfig` of every table): a table it does not know, a column with a
 * foreign key to users.id it does not cover, a uuid, uuid[], jsonb or email column it does not classify, a rule that
 * contradicts the foreign key, are problems, and the integration test fails on any. A new table cannot be forgotten.
 *
 * Conditions are SQL on the table's own columns, with `$user` for the user's id and `$email` for their email
 * (both sent as parameters). They are static text of this file, never built from input.
 */

/** A table as the schema declares it: what the registry is checked against. */
export interface TableShape {
  name: string;
  columns: ColumnShape[];
}

export interface ColumnShape {
  name: string;
  /** The SQL type as Drizzle writes it: `uuid`, `uuid[]`, `jsonb`, `text`, `timestamp with time zone`... */
  type: string;
  /** The table's only primary-key column. */
  primaryKey: boolean;
  notNull: boolean;
  /** The foreign key on this column alone, if any. */
  references?: { table: string; column: string; onDelete: string };
}

/**
 * What deleting the user does to a column that holds their id (or may mention it):
 * - `cascade`: a foreign key to users.id ON DELETE CASCADE: the row goes with the account;
 * - `set-null`: a foreign key to users.id ON DELETE SET NULL: the row stays, without them;
 * - `nullify`: no foreign key: set to null explicitly;
 * - `remove`: a uuid[] without a foreign key: their id is taken out of the array;
 * - `derived`: a uuid[] the database's triggers keep from another table's rows (covered there);
 * - `scrub`: jsonb that may mention their id anywhere: each mention becomes the nil UUID.
 */
export type UserColumnRule = "cascade" | "set-null" | "nullify" | "remove" | "derived" | "scrub";

/** One key of the export: the rows of a table that are the user's. */
export interface ExportView {
  key: string;
  /** Which rows (SQL on the table's columns; `$user`, `$email`). */
  where: string;
  /** Columns left out: secrets (hashes, keys, verifiers) and other people's private data. */
  omit?: readonly string[];
  /** Or only these columns. */
  only?: readonly string[];
  /** One object (the first row, or null) instead of a list. */
  single?: boolean;
}

export interface TableEntry {
  /** What the table holds about a user, for the reader. */
  about: string;
  /** The columns that hold (or may mention) user ids, and what deleting the user does to each. */
  userColumns?: Readonly<Record<string, UserColumnRule>>;
  /** The other uuid, uuid[], jsonb and email columns, each with why it is no user reference. */
  otherColumns?: Readonly<Record<string, string>>;
  /** The user's rows reach them through a parent row (a foreign key with ON DELETE CASCADE): they go with it. */
  parent?: { column: string; table: string };
  /** Rows deleted explicitly at the start of the deletion (SQL; `$user`, `$email`). */
  deleteWhere?: string;
  /** The export's keys for this table, or why it has none. */
  export: readonly ExportView[] | { none: string };
}

/** Each mention of a deleted user's id in stored JSON becomes this. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

const OWN_TASKS = "(select id from tasks where owner_id = $user)";

/** The registry, in the order the export lists its keys. */
export const ACCOUNT_DATA_TABLES: Readonly<Record<string, TableEntry>> = {
  users: {
    about: "The account itself: deleted last, after everything that refers to it.",
    otherColumns: {
      email: "the account's own address, deleted with the row",
      email_verified_at: "when the user confirmed their address (docs/password-reset.md)",
    },
    export: [{ key: "user", where: "id = $user", omit: ["password_hash", "token_version"], single: true }],
  },
  tasks: {
    about: "Tasks: those the user owns are deleted (with their subtasks, assignees, collaborators...); others' stay.",
    userColumns: { owner_id: "cascade", assignee_ids: "derived", collaborator_ids: "derived" },
    otherColumns: { series_id: "the series of a recurring task", recurrence: "the recurrence rule" },
    export: [
      // `answer` is the row again as the task list answers it (a trigger keeps it): not exported twice.
      { key: "tasks", where: "owner_id = $user", omit: ["answer"] },
      {
        // Others' tasks the user works on: the task's own fields, nothing about its owner's groups or other people.
        key: "sharedTasks",
        where:
          "owner_id <> $user and id in (select task_id from task_assignees where user_id = $user " +
          "union select task_id from task_collaborators where user_id = $user)",
        only: [
          "id",
          "title",
          "description",
          "status",
          "priority",
          "due_at",
          "start_date",
          "tags",
          "completed_at",
          "created_at",
          "updated_at",
        ],
      },
    ],
  },
  subtasks: {
    about: "Subtasks of tasks: they go with their task.",
    parent: { column: "task_id", table: "tasks" },
    export: [{ key: "subtasks", where: `task_id in ${OWN_TASKS}` }],
  },
  task_assignees: {
    about: "Who is assigned to which task: the user's assignments go, also on others' tasks.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "taskAssignees", where: "user_id = $user" }],
  },
  task_groups: {
    about: "Task groups: the user's are deleted; tasks other people put in them (family sharing) go back to their owners first.",
    userColumns: { owner_id: "cascade" },
    otherColumns: { names: "the group's names per language", settings: "time zones and places" },
    export: [{ key: "taskGroups", where: "owner_id = $user" }],
  },
  user_groups: {
    about: "Teams: a team whose last owner is deleted gets a new owner, or is deleted when nobody remains.",
    userColumns: { created_by: "set-null" },
    export: [{ key: "userGroups", where: "id in (select group_id from user_group_members where user_id = $user)" }],
  },
  user_group_members: {
    about: "Team memberships: the user's own (not the other members').",
    userColumns: { user_id: "cascade" },
    export: [{ key: "userGroupMemberships", where: "user_id = $user" }],
  },
  projects: {
    about: "Projects: a project whose last owner is deleted gets a new owner, or is deleted when nobody remains.",
    userColumns: { created_by: "set-null" },
    export: [{ key: "projects", where: "id in (select project_id from project_members where user_id = $user)" }],
  },
  project_members: {
    about: "Project memberships: the user's own.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "projectMemberships", where: "user_id = $user" }],
  },
  board_columns: {
    about: "The own board columns of projects and teams (lib/board-columns): they go with their project or team.",
    otherColumns: {
      project_id: "the project whose board the column is on (the column goes with it)",
      user_group_id: "the team whose board the column is on (the column goes with it)",
    },
    export: [
      {
        key: "boardColumns",
        where:
          "project_id in (select project_id from project_members where user_id = $user) " +
          "or user_group_id in (select group_id from user_group_members where user_id = $user)",
      },
    ],
  },
  board_placements: {
    about: "Which of a board's columns a task's card is in: goes with the task (or the column).",
    parent: { column: "task_id", table: "tasks" },
    otherColumns: { column_id: "the board column (board_columns) the card is in" },
    export: [{ key: "boardPlacements", where: `task_id in ${OWN_TASKS}` }],
  },
  families: {
    about: "Family workspaces: the last parent's leaving makes the longest-standing member a parent; an empty one is deleted.",
    userColumns: { created_by: "set-null" },
    export: [{ key: "families", where: "id in (select family_id from family_members where user_id = $user)" }],
  },
  family_members: {
    about: "Family membership: the user's own.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "familyMemberships", where: "user_id = $user" }],
  },
  task_collaborators: {
    about: "Collaborators on tasks: the user's collaborations go, also on others' tasks.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "taskCollaborators", where: "user_id = $user" }],
  },
  task_collaboration: {
    about: "Collaboration requests the user sent or received: deleted.",
    userColumns: { requester_id: "cascade", recipient_id: "cascade" },
    export: [{ key: "collaborationRequests", where: "requester_id = $user or recipient_id = $user" }],
  },
  task_collaboration_history: {
    about: "What happened to each request: goes with the request; the user's name as actor of others' requests is taken out.",
    userColumns: { actor_id: "set-null" },
    parent: { column: "request_id", table: "task_collaboration" },
    export: [
      {
        key: "collaborationHistory",
        where: "request_id in (select id from task_collaboration where requester_id = $user or recipient_id = $user)",
      },
    ],
  },
  invitations: {
    about:
      "Invitations: those the user sent, and those addressed to their account, are deleted; one they accepted stays " +
      "with its inviter, without them.",
    userColumns: { inviter_id: "cascade", accepted_by: "set-null", invitee_user_id: "cascade" },
    otherColumns: {
      invitee_email:
        "the address an inviter typed: the user's own invitations go with them, and those addressed to the user's email are deleted (deleteWhere)",
    },
    deleteWhere: "invitee_email = $email and accepted_at is null",
    export: [
      { key: "invitations", where: "inviter_id = $user", omit: ["token_hash"] },
      {
        // Someone else's invitation the user accepted: what it was to and when, not whom the inviter meant (the link
        // may have been passed on).
        key: "acceptedInvitations",
        where: "accepted_by = $user and inviter_id <> $user",
        only: ["id", "task_id", "project_id", "project_role", "inviter_id", "accepted_at", "created_at"],
      },
      {
        // Invitations addressed to the user's account or email, from others: what to and from whom, never the token.
        key: "receivedInvitations",
        where: "(invitee_user_id = $user or invitee_email = $email) and inviter_id <> $user",
        only: [
          "id",
          "task_id",
          "task_role",
          "project_id",
          "project_role",
          "family_id",
          "family_role",
          "team_id",
          "team_role",
          "inviter_id",
          "expires_at",
          "accepted_at",
          "declined_at",
          "revoked_at",
          "created_at",
        ],
      },
    ],
  },
  domain_events: {
    about:
      "The event log: events only for the user, and those about their own tasks, are deleted; elsewhere their id " +
      "leaves the audience, the actor and the data.",
    userColumns: { actor_id: "nullify", audience: "remove", data: "scrub" },
    otherColumns: { task_id: "the task an event is about (no foreign key: the log outlives tasks)" },
    deleteWhere: `audience <@ array[$user] or task_id in ${OWN_TASKS}`,
    // Without `data` and `audience`: snapshots of things exported under their own keys, with other people in them.
    export: [{ key: "domainEvents", where: "audience @> array[$user]", only: ["id", "type", "task_id", "created_at"] }],
  },
  notifications: {
    about: "In-app notifications: the user's are deleted; their id is taken out of others'.",
    userColumns: { user_id: "cascade", data: "scrub" },
    export: [{ key: "notifications", where: "user_id = $user" }],
  },
  notification_prefs: {
    about: "Reminder preferences per task.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "notificationPrefs", where: "user_id = $user" }],
  },
  notification_settings: {
    about: "Summary settings.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "notificationSettings", where: "user_id = $user" }],
  },
  reminder_fires: {
    about: "Reminders fired for the user.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "reminderFires", where: "user_id = $user" }],
  },
  reminder_deliveries: {
    about: "Each channel's outcome of a fired reminder: goes with it.",
    parent: { column: "fire_id", table: "reminder_fires" },
    export: [{ key: "reminderDeliveries", where: "fire_id in (select id from reminder_fires where user_id = $user)" }],
  },
  weekly_reports: {
    about: "Weekly reports.",
    userColumns: { user_id: "cascade" },
    otherColumns: { summary: "the user's own counts, deleted with the row" },
    export: [{ key: "weeklyReports", where: "user_id = $user" }],
  },
  push_subscriptions: {
    about: "Web push subscriptions: exported without the browser's keys.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "pushSubscriptions", where: "user_id = $user", omit: ["p256dh", "auth"] }],
  },
  app_settings: {
    about: "Settings of the service itself (the VAPID key pair): nobody's.",
    otherColumns: { value: "the setting's value: service keys, no user data" },
    export: { none: "no user data" },
  },
  webhook_endpoints: {
    about: "Outgoing webhook endpoints: exported without their signing secrets.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "webhookEndpoints", where: "user_id = $user", omit: ["secret", "previous_secret"] }],
  },
  webhook_deliveries: {
    about: "Messages to the user's endpoints go with them; their id is taken out of payloads sent to others.",
    userColumns: { payload: "scrub" },
    parent: { column: "endpoint_id", table: "webhook_endpoints" },
    export: [{ key: "webhookDeliveries", where: "endpoint_id in (select id from webhook_endpoints where user_id = $user)" }],
  },
  webhook_attempts: {
    about: "Each attempt of a delivery: goes with it.",
    parent: { column: "delivery_id", table: "webhook_deliveries" },
    export: [
      {
        key: "webhookAttempts",
        where:
          "delivery_id in (select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.user_id = $user)",
      },
    ],
  },
  event_cursors: {
    about: "How far each event consumer has read: nobody's.",
    export: { none: "no user data" },
  },
  email_log: {
    about: "Emails sent: every entry for the user or to their address is deleted (not only unlinked).",
    userColumns: { user_id: "set-null" },
    deleteWhere: `user_id = $user or "to" = $email`,
    export: [{ key: "emailLog", where: `user_id = $user or "to" = $email` }],
  },
  error_logs: {
    about:
      "Errors: those the user reported from their browser are deleted; server errors during their requests stay, " +
      "unlinked (their id is taken out of the context too). Exported without stack traces (program internals).",
    userColumns: { user_id: "set-null", context: "scrub" },
    deleteWhere: "user_id = $user and source = 'client'",
    export: [{ key: "errorReports", where: "user_id = $user", omit: ["stack"] }],
  },
  module_settings: {
    about: "Feature modules an administrator switched on or off: the switch stays, without who switched it.",
    userColumns: { updated_by: "set-null" },
    export: [{ key: "moduleSwitches", where: "updated_by = $user" }],
  },
  job_runs: {
    about: "The last run of each background job: nobody's.",
    export: { none: "no user data (job names, times, counts and the last error message)" },
  },
  webauthn_credentials: {
    about: "Passkeys: exported without their public keys; deleted, so they sign in no more.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "webauthnCredentials", where: "user_id = $user", omit: ["public_key"] }],
  },
  auth_challenges: {
    about: "WebAuthn challenges, for the user or asked for their email: deleted. Exported without the challenge.",
    userColumns: { user_id: "cascade" },
    otherColumns: { email: "the address a sign-in challenge was asked for: the user's are deleted (deleteWhere)" },
    deleteWhere: "user_id = $user or email = $email",
    export: [{ key: "authChallenges", where: "user_id = $user or email = $email", omit: ["challenge"] }],
  },
  sessions: {
    about: "The user's sign-ins (device, address, when): deleted, so that none works any more.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "sessions", where: "user_id = $user" }],
  },
  calendar_feeds: {
    about:
      "The user's calendar feeds (name, when made and last fetched): exported without the secret's hash; deleted, so that no feed address answers any more.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "calendarFeeds", where: "user_id = $user", omit: ["secret_hash"] }],
  },
  saved_filters: {
    about: "The user's saved filters of the task list (name, query): deleted with the account.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "savedFilters", where: "user_id = $user" }],
  },
  account_tokens: {
    about: "Password-reset and email-verification links sent to the user (only their hashes): deleted.",
    userColumns: { user_id: "cascade" },
    otherColumns: { email: "the address the link went to, deleted with the row" },
    export: [{ key: "emailLinks", where: "user_id = $user", omit: ["token_hash"] }],
  },
  personal_access_tokens: {
    about: "The user's personal access tokens (name, scopes, dates; only a hash of each secret): deleted, so that none works.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "accessTokens", where: "user_id = $user", omit: ["token_hash"] }],
  },
  idempotency_keys: {
    about:
      "Idempotency-Keys of the user's requests (24 hours, so that a retried request is not done twice): deleted; " +
      "exported without the kept answers, which are the API's own copies of data exported elsewhere.",
    userColumns: { user_id: "cascade" },
    otherColumns: {
      response_headers: "the kept answer's Content-Type, Location and ETag",
      response_body: "the API's kept answer to one of the user's requests (a copy of data exported under its own key)",
    },
    export: [{ key: "idempotencyKeys", where: "user_id = $user", omit: ["response_headers", "response_body"] }],
  },
  sync_states: {
    about:
      "What each of the user's sync clients was last sent (GET /sync): the version of every item, to tell it what " +
      "changed since; deleted.",
    userColumns: { user_id: "cascade" },
    otherColumns: {
      parent_id: "the state the client synced from (one of these rows of the same user)",
      versions: "the ETag of every item a client was sent (ids of the user's own data, exported under their own keys)",
    },
    export: [{ key: "syncCursors", where: "user_id = $user", omit: ["versions"] }],
  },
  oauth_states: {
    about:
      "OAuth sign-ins in flight, gone within minutes: linked to no user until they complete, except a link of another " +
      "external account the user started (deleted with them).",
    userColumns: { link_user_id: "cascade" },
    export: [
      {
        key: "linkAttemptsInFlight",
        where: "link_user_id = $user",
        omit: ["state", "code_verifier", "nonce", "browser_hash"],
      },
    ],
  },
  user_identities: {
    about: "Linked external accounts (Google, GitHub, Microsoft): deleted.",
    userColumns: { user_id: "cascade" },
    otherColumns: { email: "the provider's address for this identity, deleted with the row" },
    export: [{ key: "linkedIdentities", where: "user_id = $user" }],
  },
  ai_usage: {
    about: "Requests the user made to the AI service per day (the daily budget).",
    userColumns: { user_id: "cascade" },
    export: [{ key: "aiUsage", where: "user_id = $user" }],
  },
  goals: {
    about: "The user's goals.",
    userColumns: { owner_id: "cascade" },
    export: [{ key: "goals", where: "owner_id = $user" }],
  },
  goal_tasks: {
    about: "Tasks linked to the user's goals: go with the goal (or the task).",
    parent: { column: "goal_id", table: "goals" },
    otherColumns: { task_id: "a task linked to the goal (a foreign key to tasks, deleted with it)" },
    export: [{ key: "goalTasks", where: "goal_id in (select id from goals where owner_id = $user)" }],
  },
  goal_progress_reports: {
    about: "Progress entries of goals, written by the user.",
    userColumns: { user_id: "cascade" },
    parent: { column: "goal_id", table: "goals" },
    export: [{ key: "goalProgressReports", where: "user_id = $user" }],
  },
  study_plans: {
    about: "Study plans of the user's goals.",
    userColumns: { user_id: "cascade" },
    parent: { column: "goal_id", table: "goals" },
    otherColumns: { plan: "the plan's sessions and steps: the user's own text", answered_by: "which assistant wrote it" },
    export: [{ key: "studyPlans", where: "user_id = $user" }],
  },
  chat_messages: {
    about: "The user's conversation with the assistant.",
    userColumns: { user_id: "cascade" },
    otherColumns: { answered_by: "which assistant wrote a message" },
    export: [{ key: "chatMessages", where: "user_id = $user" }],
  },
  chat_actions: {
    about: "Actions the assistant proposed to the user, and their decisions.",
    userColumns: { user_id: "cascade" },
    otherColumns: {
      params: "the proposed task's fields or new due date: the user's own data",
      task_id: "the task it made or changed",
    },
    export: [{ key: "chatActions", where: "user_id = $user" }],
  },
  comments: {
    about:
      "Comments on tasks (lib/comments): those the user wrote, and all on the user's own tasks, are deleted; their id " +
      "leaves the mentions of others' comments.",
    userColumns: { author_id: "cascade", mentions: "remove" },
    parent: { column: "task_id", table: "tasks" },
    // Others' comments on the user's tasks are part of those tasks: exported with them, without whom they mention.
    export: [
      { key: "taskComments", where: "author_id = $user" },
      { key: "commentsOnOwnTasks", where: `author_id <> $user and task_id in ${OWN_TASKS}`, omit: ["mentions"] },
    ],
  },
  media_items: {
    about:
      "Files attached to tasks: those on the user's tasks and those they uploaded to others' tasks are deleted, and " +
      "their files removed from the media storage (lib/media/purge.ts). Exported without the storage key; the bytes " +
      "are downloaded from GET /media/{id}/content.",
    userColumns: { uploader_id: "cascade" },
    parent: { column: "task_id", table: "tasks" },
    export: [{ key: "mediaItems", where: `uploader_id = $user or task_id in ${OWN_TASKS}`, omit: ["storage_key"] }],
  },
  media_purges: {
    about: "Keys of deleted media files still to be removed from the storage: generated ids, nobody's.",
    export: { none: "no user data (generated keys of files whose rows are deleted already)" },
  },
  activity_records: {
    about: "Phone usage the user's devices reported.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "activityRecords", where: "user_id = $user" }],
  },
  connector_connections: {
    about:
      "Connections to external systems the user created (also a team's: they hold the user's credentials): deleted " +
      "with the account; exported without their credentials and webhook secret.",
    userColumns: { owner_id: "cascade" },
    otherColumns: { settings: "the kind's settings on the external system (a database name, a company number): no Spolu ids" },
    export: [{ key: "connectorConnections", where: "owner_id = $user", omit: ["credentials", "webhook_secret"] }],
  },
  connector_links: {
    about: "Which external record each imported or exported record is: goes with the connection.",
    otherColumns: { local_id: "a task's, goal's or invoice's id, not a user's" },
    parent: { column: "connection_id", table: "connector_connections" },
    export: [{ key: "connectorLinks", where: "connection_id in (select id from connector_connections where owner_id = $user)" }],
  },
  connector_runs: {
    about: "What each import, export and webhook of a connection did: goes with the connection.",
    otherColumns: {
      payload: "an incoming webhook's body from the external system, kept until it ran",
      counts: "numbers of items",
      items: "external ids and local record ids of the items a run handled",
    },
    parent: { column: "connection_id", table: "connector_connections" },
    export: [{ key: "connectorRuns", where: "connection_id in (select id from connector_connections where owner_id = $user)" }],
  },
  review_cards: {
    about: "The user's spaced-repetition cards with their FSRS schedule.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "reviewCards", where: "user_id = $user" }],
  },
  review_logs: {
    about: "The user's reviews of their cards (grade, time, the card's state before).",
    userColumns: { user_id: "cascade" },
    parent: { column: "card_id", table: "review_cards" },
    otherColumns: { client_review_id: "the idempotency key the user's client made for the review" },
    export: [{ key: "reviewLogs", where: "user_id = $user" }],
  },
  review_settings: {
    about: "The user's desired retention for spaced repetition.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "reviewSettings", where: "user_id = $user" }],
  },
  learning_grades: {
    about: "Grades a learning connection (Moodle) imported for its Moodle user: go with the connection.",
    parent: { column: "connection_id", table: "connector_connections" },
    export: [{ key: "learningGrades", where: "connection_id in (select id from connector_connections where owner_id = $user)" }],
  },
  task_templates: {
    about: "Templates the user made (the built-in ones are code, not rows).",
    userColumns: { owner_id: "cascade" },
    otherColumns: { tasks: "the template's task texts, priorities, relative due dates and subtask titles: no ids" },
    export: [{ key: "taskTemplates", where: "owner_id = $user" }],
  },
  time_entries: {
    about:
      "Time the user tracked (timers and entries by hand), also on others' tasks; others' time on the user's tasks goes with those tasks.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "timeEntries", where: "user_id = $user" }],
  },
  gamification_profiles: {
    about: "The user's points total and leaderboard choice.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "gamificationProfile", where: "user_id = $user" }],
  },
  gamification_awards: {
    about: "Points the user earned, one row per completed task.",
    userColumns: { user_id: "cascade" },
    otherColumns: { task_id: "the completed task (a foreign key to tasks; null once it is deleted)" },
    export: [{ key: "gamificationAwards", where: "user_id = $user" }],
  },
  gamification_badges: {
    about: "Badges the user earned.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "gamificationBadges", where: "user_id = $user" }],
  },
  gamification_level_ups: {
    about: "Levels the user reached.",
    userColumns: { user_id: "cascade" },
    export: [{ key: "gamificationLevelUps", where: "user_id = $user" }],
  },
  invoices: {
    about: "Invoices the user issued: exported, deleted with the account.",
    userColumns: { owner_id: "cascade" },
    export: [{ key: "invoices", where: "owner_id = $user" }],
  },
  invoice_items: {
    about: "The lines of the user's invoices: they go with their invoice.",
    parent: { column: "invoice_id", table: "invoices" },
    export: [{ key: "invoiceItems", where: "invoice_id in (select id from invoices where owner_id = $user)" }],
  },
  deploy_runs: {
    about: "Deploy webhook deliveries from GitHub (lib/deploy): the server's, no user's data.",
    export: { none: "no user's data: GitHub deliveries and the deploy command's output" },
  },
  queue_items: {
    about:
      "The work queue (lib/queue): when work on another table's record (a delivery, a run) is due, who holds it and " +
      "how its attempts went. Work on a deleted account's records finds nothing to do and ends.",
    otherColumns: { payload: "the work's parameters (none so far; the record is named by `key`): no user ids" },
    export: { none: "no user data (kinds of work, record keys, attempt counts and errors)" },
  },
};

const ARRAY_RULES: readonly UserColumnRule[] = ["remove", "derived"];

/** Whether a column could hold a user's id, or an email, without a foreign key saying so. */
function needsClassifying(column: ColumnShape): boolean {
  if (column.references) return false;
  if (column.name.includes("email")) return true;
  if (column.type === "uuid") return !column.primaryKey;
  return column.type === "uuid[]" || column.type === "jsonb" || column.type === "json";
}

/** The rule a foreign key to users.id asks for. */
function ruleForForeignKey(onDelete: string): UserColumnRule | null {
  if (onDelete === "cascade") return "cascade";
  if (onDelete === "set null") return "set-null";
  return null;
}

function entryColumns(entry: TableEntry): string[] {
  const views = Array.isArray(entry.export) ? (entry.export as readonly ExportView[]) : [];
  return [
    ...Object.keys(entry.userColumns ?? {}),
    ...Object.keys(entry.otherColumns ?? {}),
    ...(entry.parent ? [entry.parent.column] : []),
    ...views.flatMap((view) => [...(view.omit ?? []), ...(view.only ?? [])]),
  ];
}

function hasUserData(entry: TableEntry): boolean {
  return Object.keys(entry.userColumns ?? {}).length > 0 || entry.parent !== undefined;
}

/**
 * Everything the registry gets wrong about the schema, one sentence each; empty when it covers every table and
 * every column that may hold a user. The integration test runs it on the real schema (and on a made-up table).
 */
export function registryProblems(
  shapes: readonly TableShape[],
  registry: Readonly<Record<string, TableEntry>> = ACCOUNT_DATA_TABLES,
): string[] {
  const problems: string[] = [];
  const byName = new Map(shapes.map((shape) => [shape.name, shape]));
  const keys = new Set<string>();
  for (const name of Object.keys(registry)) {
    if (!byName.has(name)) problems.push(`${name}: in the registry but not in the schema`);
  }
  for (const shape of shapes) {
    const entry = registry[shape.name];
    if (!entry) {
      problems.push(
        `${shape.name}: not in the account-data registry (lib/account-data/tables.ts): say how it is exported and deleted`,
      );
      continue;
    }
    const columns = new Map(shape.columns.map((column) => [column.name, column]));
    for (const name of entryColumns(entry)) {
      if (!columns.has(name)) problems.push(`${shape.name}.${name}: named in the registry but not in the table`);
    }
    for (const column of shape.columns) {
      const where = `${shape.name}.${column.name}`;
      const rule = entry.userColumns?.[column.name];
      const other = entry.otherColumns?.[column.name];
      if (rule && other) problems.push(`${where}: both a user column and not one`);
      if (column.references?.table === "users") {
        const expected = ruleForForeignKey(column.references.onDelete);
        if (!rule) problems.push(`${where}: references users.id but the registry does not say what deleting the user does to it`);
        else if (!expected)
          problems.push(`${where}: references users.id ON DELETE ${column.references.onDelete}: deleting the user would fail`);
        else if (rule !== expected)
          problems.push(`${where}: the registry says ${rule}, the foreign key ON DELETE ${column.references.onDelete}`);
        continue;
      }
      if (rule === "cascade" || rule === "set-null") problems.push(`${where}: ${rule} needs a foreign key to users.id`);
      if (rule && ARRAY_RULES.includes(rule) && column.type !== "uuid[]")
        problems.push(`${where}: ${rule} is for uuid[] columns`);
      if (rule === "scrub" && column.type !== "jsonb" && column.type !== "json")
        problems.push(`${where}: scrub is for jsonb columns`);
      if (rule === "nullify" && (column.type !== "uuid" || column.notNull))
        problems.push(`${where}: nullify is for nullable uuid columns`);
      if (!rule && !other && needsClassifying(column)) {
        problems.push(
          `${where}: a ${column.type} column the registry does not classify: a user column (with its rule) or not (with why)`,
        );
      }
    }
    if (entry.parent) {
      const link = columns.get(entry.parent.column)?.references;
      if (!link || link.table !== entry.parent.table || link.onDelete !== "cascade") {
        problems.push(
          `${shape.name}.${entry.parent.column}: the parent needs a foreign key to ${entry.parent.table} ON DELETE CASCADE`,
        );
      } else if (!registry[entry.parent.table] || !hasUserData(registry[entry.parent.table]!)) {
        problems.push(`${shape.name}: its parent ${entry.parent.table} holds no user data in the registry`);
      }
    }
    if (Array.isArray(entry.export)) {
      for (const view of entry.export as readonly ExportView[]) {
        if (keys.has(view.key)) problems.push(`${shape.name}: the export key ${view.key} is used twice`);
        keys.add(view.key);
        if (!/\$user\b/.test(view.where)) problems.push(`${shape.name}: the export ${view.key} does not select by $user`);
      }
    } else if (hasUserData(entry)) {
      problems.push(`${shape.name}: holds user data but is not exported`);
    }
  }
  return problems;
}

/** The export keys with the tables they come from: every table with user data has at least one. */
export function exportKeys(
  registry: Readonly<Record<string, TableEntry>> = ACCOUNT_DATA_TABLES,
): { table: string; view: ExportView }[] {
  return Object.entries(registry).flatMap(([table, entry]) =>
    Array.isArray(entry.export) ? (entry.export as readonly ExportView[]).map((view) => ({ table, view })) : [],
  );
}
