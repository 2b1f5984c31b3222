import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { AppError } from "../../api/app-error";
import { createGoal, linkTask, updateGoal } from "../../goals/service";
import { GOAL_DESCRIPTION_MAX, GOAL_TITLE_MAX } from "../../goals/vocabulary";
import { localDateOf } from "../../local-dates";
import { createTask, getTask, updateTask } from "../../tasks/service";
import type { ConnectorDriver, SyncContext } from "../driver";
import { ConnectorError } from "../http";
import { callMoodle, MOODLE_FUNCTIONS, MoodleException, warningText, type MoodleWarning } from "./client";
import { replaceCourseGrades, type NewGrade } from "./repo";
import { clip, htmlToText } from "./text";

/*
 * The learning connector (kind `learning`): a Moodle site's web services. The import brings the Moodle user's
 * courses in as goals and the courses' assignments as tasks linked to them (due dates kept), completion (an activity
 * complete or passed: its task done; the course complete: its goal achieved) and grades (stored per grade item,
 * GET /learning/grades). Moodle's failing call for one course fails that course alone (the run ends `partial`); an
 * invalid token fails the run (not retried); no answer in time fails it for a retry.
 *
 * What Moodle changes is carried over when it changes (a fingerprint of what was imported); edits made here to an
 * imported task or goal stay until Moodle's side changes. Completion only ever moves forward: a task done here is
 * not reopened because Moodle says incomplete, and an activity completed but failed (state 3) leaves its task open,
 * with a line in its description saying so. A task or goal deleted here is not created again.
 *
 * The export sends completion back: each task linked to an assignment, done here or not, as the assignment's
 * activity completion (`core_completion_update_activity_completion_status_manually`, its course module id and
 * completed 1 or 0). Moodle takes that only for activities with manual completion, and only for the token's own
 * user (the function marks whoever holds the token). So each linked task is, item by item:
 * - `unchanged` when Moodle's state (read with core_completion_get_activities_completion_status) is the task's;
 * - `skipped`, nothing sent, when the activity's completion is automatic (Moodle's conditions decide it) or not
 *   tracked, when Moodle refuses the call for this activity (`cannotmanualctrack`, `completionnotenabled`, or
 *   `status: false` with warnings: the reason recorded), when the task was deleted here, when the assignment is no
 *   longer in the user's courses, when the connection syncs another Moodle user than the token's, and when Moodle's
 *   state changed after the last export sent this task's (a change made in Moodle is not overwritten until the task
 *   changes here again);
 * - `updated` when sent; what was sent is kept per task (link `completion`), so a repeated export sends nothing
 *   again. A failing call for one activity fails that item; no answer in time fails the run for a retry (the
 *   items already sent are not sent again).
 */

export type MoodleCredentials = { token: string };
export type MoodleSettings = { userId?: number };
type Context = SyncContext<MoodleCredentials, MoodleSettings>;

const TASK_TITLE_MAX = 500;
const TASK_DESCRIPTION_MAX = 20_000;
const FAILED_NOTE = "Moodle: completed, but not passed (complete fail).";
/** Exceptions of core_completion_get_course_completion_status that mean "no completion to import", not a failure. */
const NO_COURSE_COMPLETION = new Set(["nocriteriaset", "notenroled", "usernotenroled", "completionnotenabled"]);

// Moodle's answers, the fields used (protocols.md B2)

const id = z.coerce.number().int();
const seconds = z.coerce.number().int().nullish();
const warnings = z
  .array(
    z.object({
      item: z.string().optional(),
      itemid: z.union([z.number(), z.string()]).optional(),
      warningcode: z.string().optional(),
      message: z.string().optional(),
    }),
  )
  .optional();

const siteInfoAnswer = z.object({
  sitename: z.string().optional(),
  username: z.string().optional(),
  userid: id,
  release: z.string().optional(),
  version: z.string().optional(),
  functions: z.array(z.object({ name: z.string() })).optional(),
});

const courseAnswer = z.object({
  id,
  shortname: z.string().optional(),
  fullname: z.string(),
  summary: z.string().nullish(),
  startdate: seconds,
  enddate: seconds,
  progress: z.number().nullish(),
  completed: z.boolean().nullish(),
  visible: z.coerce.number().optional(),
});
export type MoodleCourse = z.infer<typeof courseAnswer>;
const coursesAnswer = z.array(courseAnswer);

const assignmentAnswer = z.object({ id, cmid: id, course: id, name: z.string(), duedate: seconds, intro: z.string().nullish() });
type MoodleAssignment = z.infer<typeof assignmentAnswer>;
const assignmentsAnswer = z.object({ courses: z.array(z.object({ id, assignments: z.array(assignmentAnswer) })), warnings });

const activitiesAnswer = z.object({
  statuses: z.array(
    z.object({ cmid: id, modname: z.string().optional(), instance: id.optional(), state: id, tracking: id.optional() }),
  ),
  warnings,
});
const manualCompletionAnswer = z.object({ status: z.boolean(), warnings });
const courseCompletionAnswer = z.object({ completionstatus: z.object({ completed: z.boolean() }), warnings });

const gradeItemAnswer = z.object({
  id,
  itemname: z.string().nullish(),
  itemtype: z.string(),
  itemmodule: z.string().nullish(),
  iteminstance: id.nullish(),
  graderaw: z.number().nullish(),
  gradeformatted: z.string().nullish(),
  grademin: z.number().nullish(),
  grademax: z.number().nullish(),
  percentageformatted: z.string().nullish(),
  feedback: z.string().nullish(),
  gradedategraded: seconds,
});
const gradesAnswer = z.object({ usergrades: z.array(z.object({ userid: id, gradeitems: z.array(gradeItemAnswer) })), warnings });

async function call<T extends z.ZodType>(
  context: Context,
  wsfunction: string,
  params: Record<string, unknown>,
  schema: T,
): Promise<z.infer<T>> {
  const answer = await callMoodle(context, wsfunction, params);
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConnectorError(
      `Moodle's answer to ${wsfunction} is not as documented (${issue?.path.join(".") || "answer"}: ${issue?.message})`,
      false,
    );
  }
  return parsed.data;
}

export async function siteInfo(context: Context) {
  return call(context, "core_webservice_get_site_info", {}, siteInfoAnswer);
}

/** The Moodle user whose courses are synced: the settings' one, else the token's own. */
async function syncedUserId(context: Context): Promise<number> {
  return context.connection.settings.userId ?? (await siteInfo(context)).userid;
}

export async function enrolledCourses(context: Context, userId: number): Promise<MoodleCourse[]> {
  return call(context, "core_enrol_get_users_courses", { userid: userId, returnusercount: 0 }, coursesAnswer);
}

const fingerprint = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");
const fromSeconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);
const isNotFound = (error: unknown) => error instanceof AppError && error.code === "not_found";

/** Everything Moodle says about one course, fetched before anything is written (so a failing call changes nothing). */
interface CourseData {
  course: MoodleCourse;
  assignments: MoodleAssignment[];
  /** The completion state of each activity by its course module id: 0 incomplete, 1 complete, 2 pass, 3 fail. */
  states: Map<number, number>;
  completed: boolean;
  grades: NewGrade[];
  notes: string[];
}

async function fetchCourse(
  context: Context,
  userId: number,
  course: MoodleCourse,
  assignments: MoodleAssignment[],
  notes: string[],
): Promise<CourseData> {
  const courseid = course.id;
  const activities = await call(
    context,
    "core_completion_get_activities_completion_status",
    { courseid, userid: userId },
    activitiesAnswer,
  );
  let completed = course.completed ?? false;
  try {
    const completion = await call(
      context,
      "core_completion_get_course_completion_status",
      { courseid, userid: userId },
      courseCompletionAnswer,
    );
    completed = completion.completionstatus.completed;
    notes.push(...[warningText(completion.warnings)].filter((note) => note !== undefined));
  } catch (error) {
    if (!(error instanceof MoodleException && NO_COURSE_COMPLETION.has(error.errorcode))) throw error;
  }
  const report = await call(context, "gradereport_user_get_grade_items", { courseid, userid: userId }, gradesAnswer);
  const own =
    report.usergrades.find((grades) => grades.userid === userId) ??
    (report.usergrades.length === 1 ? report.usergrades[0] : undefined);
  const grades: NewGrade[] = (own?.gradeitems ?? []).map((item) => ({
    itemId: String(item.id),
    itemName: item.itemname ?? (item.itemtype === "course" ? "Course total" : ""),
    itemType: item.itemtype,
    itemModule: item.itemmodule ?? null,
    itemInstance: item.iteminstance == null ? null : String(item.iteminstance),
    grade: item.graderaw ?? null,
    gradeFormatted: item.gradeformatted ?? "",
    gradeMin: item.grademin ?? null,
    gradeMax: item.grademax ?? null,
    percentageFormatted: item.percentageformatted ?? "",
    feedback: htmlToText(item.feedback),
    gradedAt: fromSeconds(item.gradedategraded),
  }));
  for (const answer of [activities.warnings, report.warnings]) {
    const note = warningText(answer);
    if (note) notes.push(note);
  }
  return {
    course,
    assignments,
    states: new Map(activities.statuses.map((status) => [status.cmid, status.state])),
    completed,
    grades,
    notes,
  };
}

/** The course as a goal: created once, updated when Moodle's side changed; answers the goal's id (null: deleted here). */
async function importGoal(context: Context, data: CourseData): Promise<string | null> {
  const { course, completed } = data;
  const actor = context.connection.actor;
  const externalId = String(course.id);
  const fields = {
    title: clip(course.fullname.trim() || course.shortname || `Course ${course.id}`, GOAL_TITLE_MAX),
    description: clip(htmlToText(course.summary), GOAL_DESCRIPTION_MAX),
    targetDate: course.enddate ? localDateOf(new Date(course.enddate * 1000), actor.timeZone) : null,
  };
  const print = fingerprint({ ...fields, completed });
  const note = data.notes.length ? data.notes.join("; ") : undefined;
  const link = await context.links.find("course", externalId);
  if (link?.localId && link.fingerprint === print) {
    context.item({ entity: "course", externalId, localId: link.localId, action: "unchanged", ...(note && { note }) });
    return link.localId;
  }
  if (link?.localId) {
    try {
      const goal = await updateGoal(actor, link.localId, { ...fields, ...(completed && { status: "achieved" as const }) });
      await context.links.save("course", externalId, goal.id, print);
      context.item({ entity: "course", externalId, localId: goal.id, action: "updated", ...(note && { note }) });
      return goal.id;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      context.item({
        entity: "course",
        externalId,
        localId: null,
        action: "skipped",
        note: "its goal was deleted here: not created again",
      });
      return null;
    }
  }
  if (link) {
    context.item({
      entity: "course",
      externalId,
      localId: null,
      action: "skipped",
      note: "its goal was deleted here: not created again",
    });
    return null;
  }
  const goal = await createGoal(actor, { ...fields, status: completed ? "achieved" : "active" });
  await context.links.save("course", externalId, goal.id, print);
  context.item({ entity: "course", externalId, localId: goal.id, action: "created", ...(note && { note }) });
  return goal.id;
}

async function importAssignment(
  context: Context,
  assignment: MoodleAssignment,
  state: number,
  goalId: string | null,
): Promise<string | null> {
  const actor = context.connection.actor;
  const externalId = String(assignment.id);
  const intro = htmlToText(assignment.intro);
  const failed = state === 3;
  const fields = {
    title: clip(assignment.name.trim() || `Assignment ${assignment.id}`, TASK_TITLE_MAX),
    description: clip(failed ? [intro, FAILED_NOTE].filter(Boolean).join("\n\n") : intro, TASK_DESCRIPTION_MAX),
    dueAt: fromSeconds(assignment.duedate)?.toISOString() ?? null,
  };
  const complete = state === 1 || state === 2;
  const print = fingerprint({ ...fields, complete, goalId });
  const link = await context.links.find("assignment", externalId);
  if (link?.localId && link.fingerprint === print) {
    context.item({ entity: "assignment", externalId, localId: link.localId, action: "unchanged" });
    return link.localId;
  }
  if (link && !link.localId) {
    context.item({
      entity: "assignment",
      externalId,
      localId: null,
      action: "skipped",
      note: "its task was deleted here: not created again",
    });
    return null;
  }
  let taskId: string;
  if (link?.localId) {
    try {
      const current = await getTask(actor, link.localId);
      const task = await updateTask(actor, link.localId, {
        ...fields,
        ...(complete && current.status !== "done" && { status: "done" as const }),
      });
      taskId = task.id;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await context.links.save("assignment", externalId, null, null);
      context.item({
        entity: "assignment",
        externalId,
        localId: null,
        action: "skipped",
        note: "its task was deleted here: not created again",
      });
      return null;
    }
  } else {
    taskId = (await createTask(actor, { ...fields, status: complete ? "done" : "todo" })).id;
  }
  // Linked before the goal link is tried: a refused goal link must not make the next run create the task again.
  await context.links.save("assignment", externalId, taskId, null);
  if (goalId) await linkTask(actor, goalId, taskId);
  await context.links.save("assignment", externalId, taskId, print);
  context.item({ entity: "assignment", externalId, localId: taskId, action: link ? "updated" : "created" });
  return taskId;
}

/** Writes one course fetched in full: its goal, its assignments' tasks, its grades. */
async function writeCourse(context: Context, data: CourseData): Promise<void> {
  const goalId = await importGoal(context, data);
  if (goalId === null) {
    // The goal went: remember that, so that later runs skip it quietly too.
    await context.links.save("course", String(data.course.id), null, null);
  }
  for (const assignment of data.assignments) {
    try {
      await importAssignment(context, assignment, data.states.get(assignment.cmid) ?? 0, goalId);
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      context.item({
        entity: "assignment",
        externalId: String(assignment.id),
        localId: null,
        action: "failed",
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  await replaceCourseGrades(context.connection.id, String(data.course.id), data.grades);
}

/**
 * Imports the given courses. A Moodle exception for one course (other than the token's) fails that course alone;
 * the token refused, or Moodle not answering, fails the whole run.
 */
async function importCourses(context: Context, userId: number, courses: readonly MoodleCourse[]): Promise<void> {
  if (courses.length === 0) return;
  const answer = await call(
    context,
    "mod_assign_get_assignments",
    { courseids: courses.map((course) => course.id) },
    assignmentsAnswer,
  );
  const byCourse = new Map(answer.courses.map((course) => [course.id, course.assignments]));
  const courseWarnings = (answer.warnings ?? []) as MoodleWarning[];
  for (const course of courses) {
    const notes = [
      warningText(courseWarnings.filter((warning) => warning.item === "course" && Number(warning.itemid) === course.id)),
    ].filter((note) => note !== undefined);
    let data: CourseData;
    try {
      data = await fetchCourse(context, userId, course, byCourse.get(course.id) ?? [], notes);
    } catch (error) {
      if (!(error instanceof MoodleException) || error.isAuthentication) throw error;
      context.item({ entity: "course", externalId: String(course.id), localId: null, action: "failed", error: error.message });
      continue;
    }
    try {
      await writeCourse(context, data);
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      // A local refusal (too many goals, a goal's linked-task limit): this course fails, the others go on.
      context.item({
        entity: "course",
        externalId: String(course.id),
        localId: null,
        action: "failed",
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

// The export: completion back to Moodle

const MANUAL_COMPLETION = "core_completion_update_activity_completion_status_manually";
/** Moodle's refusals that mean "this activity takes no manual completion": skipped, not failed. */
const NOT_MANUAL = new Set(["cannotmanualctrack", "completionnotenabled"]);
/** Activity completion tracking (protocols.md B2): 0 none, 1 manual, 2 automatic. */
const TRACKING_NONE = 0;
const TRACKING_AUTOMATIC = 2;
const COMPLETE = "complete";
const INCOMPLETE = "incomplete";

async function exportCompletion(context: Context): Promise<void> {
  const linked = (await context.links.list("assignment")).filter((link) => link.localId !== null);
  if (linked.length === 0) return;
  const actor = context.connection.actor;
  const info = await siteInfo(context);
  const userId = context.connection.settings.userId ?? info.userid;
  const skip = (externalId: string, localId: string | null, note: string) =>
    context.item({ entity: "assignment", externalId, localId, action: "skipped", note });
  if (userId !== info.userid) {
    for (const link of linked)
      skip(
        link.externalId,
        link.localId,
        `Moodle's manual completion marks the token's own user (${info.userid}), not the synced user ${userId}: nothing sent`,
      );
    return;
  }
  const courses = await enrolledCourses(context, userId);
  const assignments = new Map<string, MoodleAssignment>();
  if (courses.length) {
    const answer = await call(
      context,
      "mod_assign_get_assignments",
      { courseids: courses.map((course) => course.id) },
      assignmentsAnswer,
    );
    for (const course of answer.courses)
      for (const assignment of course.assignments) assignments.set(String(assignment.id), assignment);
  }
  const statuses = new Map<number, Promise<Map<number, { state: number; tracking?: number }>>>();
  const statusesOf = (courseid: number) => {
    if (!statuses.has(courseid))
      statuses.set(
        courseid,
        call(context, "core_completion_get_activities_completion_status", { courseid, userid: userId }, activitiesAnswer).then(
          (answer) => new Map(answer.statuses.map((status) => [status.cmid, status])),
        ),
      );
    return statuses.get(courseid)!;
  };

  for (const link of linked) {
    const externalId = link.externalId;
    const localId = link.localId!;
    try {
      let task;
      try {
        task = await getTask(actor, localId);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        skip(externalId, localId, "its task was deleted here: nothing sent");
        continue;
      }
      const assignment = assignments.get(externalId);
      if (!assignment) {
        skip(externalId, localId, "the assignment is no longer in the synced user's Moodle courses: nothing sent");
        continue;
      }
      const status = (await statusesOf(assignment.course)).get(assignment.cmid);
      if (status?.tracking === TRACKING_AUTOMATIC) {
        skip(externalId, localId, "completion is automatic in Moodle (the activity's conditions decide it): not sent");
        continue;
      }
      if (status?.tracking === TRACKING_NONE) {
        skip(externalId, localId, "Moodle does not track completion of this activity: not sent");
        continue;
      }
      const wanted = task.status === "done" ? COMPLETE : INCOMPLETE;
      const inMoodle = status ? (status.state === 0 ? INCOMPLETE : COMPLETE) : null;
      const lastSent = (await context.links.find("completion", externalId))?.fingerprint ?? null;
      if (inMoodle === wanted) {
        await context.links.save("completion", externalId, task.id, wanted);
        context.item({ entity: "assignment", externalId, localId, action: "unchanged" });
        continue;
      }
      if (lastSent === wanted) {
        skip(externalId, localId, `changed in Moodle after the last export sent "${wanted}": not overwritten`);
        continue;
      }
      let answer;
      try {
        answer = await call(
          context,
          MANUAL_COMPLETION,
          { cmid: assignment.cmid, completed: wanted === COMPLETE },
          manualCompletionAnswer,
        );
      } catch (error) {
        if (!(error instanceof MoodleException) || error.isAuthentication || !NOT_MANUAL.has(error.errorcode)) throw error;
        skip(externalId, localId, `Moodle takes no manual completion for this activity: ${error.message}`);
        continue;
      }
      if (!answer.status) {
        skip(externalId, localId, `Moodle did not take it: ${warningText(answer.warnings) ?? "status false"}`);
        continue;
      }
      await context.links.save("completion", externalId, task.id, wanted);
      context.item({ entity: "assignment", externalId, localId, action: "updated", note: `sent: ${wanted}` });
    } catch (error) {
      // No answer, a timeout or the token refused: the run fails (retried when that may pass).
      if (error instanceof ConnectorError && !(error instanceof MoodleException && !error.isAuthentication)) throw error;
      context.item({
        entity: "assignment",
        externalId,
        localId,
        action: "failed",
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

const webhookPayload = z.object({
  eventname: z.string().max(300),
  courseid: z.coerce.number().int().positive(),
  contextinstanceid: z.coerce.number().int().optional(),
  userid: z.coerce.number().int().optional(),
  relateduserid: z.coerce.number().int().nullish(),
});

export const moodleDriver: ConnectorDriver<MoodleCredentials, MoodleSettings> = {
  kind: "learning",
  module: "learning",
  credentials: z.strictObject({
    token: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, "must be the web service token (32 letters and digits, as Moodle shows it)")
      .openapi({ description: "The Moodle web service token (wstoken)" }),
  }),
  settings: z.strictObject({
    userId: z
      .number({ message: "must be a Moodle user id" })
      .int("must be a Moodle user id")
      .positive("must be a Moodle user id")
      .optional()
      .openapi({ description: "The Moodle user whose courses are synced; default: the token's own user" }),
  }),
  describeCredentials: (credentials) => `token …${credentials.token.slice(-4)}`,

  async check(context) {
    let info;
    try {
      info = await siteInfo(context);
    } catch (error) {
      if (error instanceof MoodleException)
        return {
          reachable: true,
          authenticated: false,
          error: `Authentication failed: ${error.moodleMessage || error.errorcode} (${error.errorcode})`,
        };
      throw error;
    }
    const offered = new Set((info.functions ?? []).map((fn) => fn.name));
    const missingFunctions = MOODLE_FUNCTIONS.filter((name) => !offered.has(name));
    return {
      reachable: true,
      authenticated: true,
      version: info.release ?? info.version ?? null,
      details: {
        siteName: info.sitename ?? null,
        username: info.username ?? null,
        tokenUserId: info.userid,
        syncedUserId: context.connection.settings.userId ?? info.userid,
        missingFunctions,
      },
      error: missingFunctions.length
        ? `The token's external service lacks ${missingFunctions.join(", ")}: add them, or the import or export fails`
        : null,
    };
  },

  async import(context) {
    const userId = await syncedUserId(context);
    await importCourses(context, userId, await enrolledCourses(context, userId));
  },

  export: exportCompletion,

  async webhook(context, payload) {
    const parsed = webhookPayload.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ConnectorError(`The event is not one of Moodle's (${issue.path.join(".") || "body"}: ${issue.message})`, false);
    }
    const event = parsed.data;
    const userId = await syncedUserId(context);
    const eventUser = event.relateduserid ?? event.userid;
    if (eventUser !== undefined && eventUser !== 0 && eventUser !== userId) {
      context.item({
        entity: "course",
        externalId: String(event.courseid),
        localId: null,
        action: "skipped",
        note: `${event.eventname} concerns another Moodle user`,
      });
      return;
    }
    const course = (await enrolledCourses(context, userId)).find((each) => each.id === event.courseid);
    if (!course) {
      context.item({
        entity: "course",
        externalId: String(event.courseid),
        localId: null,
        action: "skipped",
        note: "the synced user is not enrolled in this course",
      });
      return;
    }
    await importCourses(context, userId, [course]);
  },
};
