import { z } from "@hono/zod-openapi";

const connectionId = z.uuid("must be a connection id").optional().openapi({
  description: "The learning connection; may be left out when you see only one (your personal one first)",
});

export const learningQuery = z.strictObject({ connectionId }).openapi("LearningQuery");
export type LearningQuery = z.infer<typeof learningQuery>;

export const gradesQuery = z
  .strictObject({
    connectionId,
    courseId: z
      .string()
      .regex(/^[1-9]\d{0,17}$/, "must be a Moodle course id (a positive whole number)")
      .optional()
      .openapi({ description: "Only this Moodle course's grades" }),
  })
  .openapi("LearningGradesQuery");
export type GradesQuery = z.infer<typeof gradesQuery>;

export const courseOutput = z
  .object({
    id: z.number().int().openapi({ description: "Moodle's course id" }),
    shortname: z.string(),
    fullname: z.string(),
    url: z.string().openapi({ description: "The course's page on the Moodle site" }),
    startDate: z.iso.datetime().nullable(),
    endDate: z.iso.datetime().nullable(),
    progress: z
      .number()
      .nullable()
      .openapi({ description: "Moodle's completion progress in percent, when the course tracks completion" }),
    completed: z.boolean().nullable(),
    goalId: z
      .uuid()
      .nullable()
      .openapi({ description: "The goal the course was imported to; null: not imported yet (or its goal was deleted)" }),
  })
  .openapi("LearningCourse");

export const courseListOutput = z
  .object({
    connectionId: z.uuid(),
    moodleUserId: z.number().int().openapi({ description: "Whose courses these are on Moodle" }),
    items: z.array(courseOutput),
  })
  .openapi("LearningCourseList");
export type CourseListOutput = z.infer<typeof courseListOutput>;

export const gradeOutput = z
  .object({
    courseId: z.string().openapi({ description: "Moodle's course id" }),
    goalId: z.uuid().nullable().openapi({ description: "The course's goal here" }),
    itemId: z.string().openapi({ description: "Moodle's grade item id" }),
    name: z.string(),
    type: z.string().openapi({ description: "`mod` (an activity), `course` (the course total), `category`, `manual`" }),
    module: z.string().nullable().openapi({ description: "The activity's module: `assign`, `quiz`..." }),
    assignmentId: z.string().nullable().openapi({ description: "For an assignment's grade: Moodle's assignment id" }),
    taskId: z.uuid().nullable().openapi({ description: "For an assignment's grade: the task it was imported to" }),
    grade: z.number().nullable().openapi({ description: "The raw grade; null: not graded yet" }),
    gradeFormatted: z.string().openapi({ description: "As Moodle shows it (may be a letter or a scale value)" }),
    gradeMin: z.number().nullable(),
    gradeMax: z.number().nullable(),
    percentage: z.string().openapi({ description: "As Moodle formats it, e.g. `85.00 %`; empty when not shown" }),
    feedback: z.string().openapi({ description: "The grader's feedback, as plain text" }),
    gradedAt: z.iso.datetime().nullable(),
    syncedAt: z.iso.datetime(),
  })
  .openapi("LearningGrade");

export const gradeListOutput = z.object({ connectionId: z.uuid(), items: z.array(gradeOutput) }).openapi("LearningGradeList");
export type GradeListOutput = z.infer<typeof gradeListOutput>;
