import { describe, expect, test } from "vitest";
import { AppError } from "../api/app-error";
import { mayOnTask, requireOnTask, TASK_PERMISSIONS, taskRelations, type TaskAction, type TaskParties } from "./tasks";

const OWNER = "owner";
const ASSIGNEE = "assignee";
const MEMBER = "member";
const task: TaskParties = { ownerId: OWNER, assigneeIds: [ASSIGNEE], userGroupId: "team" };
const actions = Object.keys(TASK_PERMISSIONS) as TaskAction[];
const allowed = (userId: string, on = task) => actions.filter((action) => mayOnTask(userId, on, action));

describe("task permissions", () => {
  test("the owner may do everything but claim (it is theirs already)", () => {
    expect(allowed(OWNER)).toEqual(["read", "edit", "manage", "delete", "share", "transfer"]);
  });

  test("an assignee reads, edits and shares, but does not manage, delete or hand over", () => {
    expect(allowed(ASSIGNEE)).toEqual(["read", "edit", "share"]);
  });

  test("a member of the task's user group reads it and may claim it, nothing else", () => {
    expect(taskRelations(MEMBER, task)).toEqual(["teamMember"]);
    expect(allowed(MEMBER)).toEqual(["read", "claim"]);
  });

  test("an owner who is also assigned keeps every right of both", () => {
    const own = { ...task, assigneeIds: [OWNER] };
    expect(taskRelations(OWNER, own)).toEqual(["owner", "assignee"]);
    expect(allowed(OWNER, own)).toEqual(["read", "edit", "manage", "delete", "share", "transfer"]);
  });

  test("without a user group, someone neither owner nor assignee has no relation and no right", () => {
    const privateTask = { ...task, userGroupId: null };
    expect(taskRelations(MEMBER, privateTask)).toEqual([]);
    expect(allowed(MEMBER, privateTask)).toEqual([]);
  });

  test("a refusal is a 403 that says who may", () => {
    expect(() => requireOnTask(ASSIGNEE, task, "delete")).toThrow(AppError);
    let refusal: unknown;
    try {
      requireOnTask(MEMBER, task, "edit");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 403, message: "Only the task's owner and assignees can change it" });
    expect(() => requireOnTask(OWNER, task, "delete")).not.toThrow();
  });
});
