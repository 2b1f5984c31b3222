import { doublePrecision, pgTable, primaryKey, text, timestamp, uuid, index } from "drizzle-orm/pg-core";
import { connectorConnections } from "./connectors";

/**
 * The grades a learning connection (Moodle, lib/connectors/moodle) imported: one row per grade item of the synced
 * Moodle user (`gradereport_user_get_grade_items`), the assignment's grade among them. Replaced for a course each
 * time the course is imported; they go with the connection.
 */
export const learningGrades = pgTable(
  "learning_grades",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connectorConnections.id, { onDelete: "cascade" }),
    /** Moodle's course id. */
    courseId: text("course_id").notNull(),
    /** Moodle's grade item id. */
    itemId: text("item_id").notNull(),
    itemName: text("item_name").notNull(),
    /** `mod` (an activity's grade), `course` (the course total), `category`, `manual`. */
    itemType: text("item_type").notNull(),
    /** The activity's module (`assign`, `quiz`...) for a `mod` item. */
    itemModule: text("item_module"),
    /** The activity instance's id (for `assign`: the assignment's id). */
    itemInstance: text("item_instance"),
    grade: doublePrecision("grade"),
    gradeFormatted: text("grade_formatted").notNull().default(""),
    gradeMin: doublePrecision("grade_min"),
    gradeMax: doublePrecision("grade_max"),
    percentageFormatted: text("percentage_formatted").notNull().default(""),
    feedback: text("feedback").notNull().default(""),
    gradedAt: timestamp("graded_at", { withTimezone: true }),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.itemId] }),
    index("learning_grades_course_idx").on(table.connectionId, table.courseId),
  ],
);

export type LearningGradeRow = typeof learningGrades.$inferSelect;
