import { AppError } from "../../api/app-error";
import type { Actor } from "../../auth/actor";
import type { StatusOutput } from "../schema";
import { checkVisible, connectionOfKind, driverContext } from "../service";
import { ConnectorError } from "../http";
import { enrolledCourses, siteInfo, type MoodleCredentials, type MoodleSettings } from "./driver";
import { linkedIds, listGrades } from "./repo";
import type { CourseListOutput, GradeListOutput, GradesQuery, LearningQuery } from "./schema";

/*
 * The learning routes (/learning/...): what a Moodle connection you see looks like now. The caller's connection
 * is found like every kind's own routes do (connectionOfKind): a stranger's is a 404.
 */

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);

export async function learningStatus(actor: Actor, query: LearningQuery): Promise<StatusOutput> {
  return checkVisible(await connectionOfKind(actor, "learning", query.connectionId));
}

/** The Moodle user's courses as Moodle lists them now, each with the goal it was imported to. */
export async function learningCourses(actor: Actor, query: LearningQuery): Promise<CourseListOutput> {
  const visible = await connectionOfKind(actor, "learning", query.connectionId);
  const context = await driverContext<MoodleCredentials, MoodleSettings>(visible);
  try {
    const userId = context.connection.settings.userId ?? (await siteInfo(context)).userid;
    const courses = await enrolledCourses(context, userId);
    const goals = await linkedIds(visible.row.id, "course");
    return {
      connectionId: visible.row.id,
      moodleUserId: userId,
      items: courses.map((course) => ({
        id: course.id,
        shortname: course.shortname ?? "",
        fullname: course.fullname,
        url: `${visible.row.baseUrl}/course/view.php?id=${course.id}`,
        startDate: iso(course.startdate),
        endDate: iso(course.enddate),
        progress: course.progress ?? null,
        completed: course.completed ?? null,
        goalId: goals.get(String(course.id)) ?? null,
      })),
    };
  } catch (error) {
    if (error instanceof ConnectorError) throw new AppError("unavailable", `Moodle could not list the courses: ${error.message}`);
    throw error;
  }
}

/** The grades the last imports stored, by course and grade item. */
export async function learningGrades(actor: Actor, query: GradesQuery): Promise<GradeListOutput> {
  const visible = await connectionOfKind(actor, "learning", query.connectionId);
  const rows = await listGrades(visible.row.id, query.courseId);
  const goals = await linkedIds(visible.row.id, "course");
  const tasks = await linkedIds(visible.row.id, "assignment");
  const byNumber = (a: string, b: string) => Number(a) - Number(b);
  rows.sort((a, b) => byNumber(a.courseId, b.courseId) || byNumber(a.itemId, b.itemId));
  return {
    connectionId: visible.row.id,
    items: rows.map((row) => {
      const assignmentId = row.itemModule === "assign" ? row.itemInstance : null;
      return {
        courseId: row.courseId,
        goalId: goals.get(row.courseId) ?? null,
        itemId: row.itemId,
        name: row.itemName,
        type: row.itemType,
        module: row.itemModule,
        assignmentId,
        taskId: (assignmentId && tasks.get(assignmentId)) ?? null,
        grade: row.grade,
        gradeFormatted: row.gradeFormatted,
        gradeMin: row.gradeMin,
        gradeMax: row.gradeMax,
        percentage: row.percentageFormatted,
        feedback: row.feedback,
        gradedAt: row.gradedAt?.toISOString() ?? null,
        syncedAt: row.syncedAt.toISOString(),
      };
    }),
  };
}
