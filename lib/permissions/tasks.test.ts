import { describe, expect, test } from "vitest";
import { AppError } from "../api/app-error";
import {
  mayOnTask,
  NO_LINKS,
  requireOnTask,
  TASK_PERMISSIONS,
  taskRelations,
  type TaskAction,
  type TaskParties,
  type ViewerLinks,
} from "./tasks";

const OWNER = "owner";
const ASSIGNEE = "assignee";
const COLLABORATOR = "collaborator";
const OTHER = "other";
const task: TaskParties = { ownerId: OWNER, assigneeIds: [ASSIGNEE], collaboratorIds: [COLLABORATOR], viewer: NO_LINKS };
const actions = Object.keys(TASK_PERMISSIONS) as TaskAction[];
const allowed = (userId: string, on = task) => actions.filter((action) => mayOnTask(userId, on, action));
const through = (links: Partial<ViewerLinks>) => ({ ...task, viewer: { ...NO_LINKS, ...links } });

describe("task permissions", () => {
  test("the owner may do everything but claim (it is theirs already)", () => {
    expect(allowed(OWNER)).toEqual(["read", "edit", "manage", "delete", "share", "transfer"]);
  });

  test("an assignee reads, edits and shares, but does not manage, delete or hand over", () => {
    expect(allowed(ASSIGNEE)).toEqual(["read", "edit", "share"]);
  });

  test("a collaborator reads, edits, shares and may claim the task", () => {
    expect(taskRelations(COLLABORATOR, task)).toEqual(["collaborator"]);
    expect(allowed(COLLABORATOR)).toEqual(["read", "edit", "share", "claim"]);
  });

  test("a member of the task's user group reads it and may claim it, nothing else", () => {
    const viaTeam = through({ teamMember: true });
    expect(taskRelations(OTHER, viaTeam)).toEqual(["teamMember"]);
    expect(allowed(OTHER, viaTeam)).toEqual(["read", "claim"]);
  });

  test("project members edit and claim the project's tasks; viewers only read them", () => {
    for (const role of ["owner", "admin", "member"] as const) {
      expect(allowed(OTHER, through({ projectRole: role }))).toEqual(["read", "edit", "claim"]);
    }
    expect(taskRelations(OTHER, through({ projectRole: "viewer" }))).toEqual(["projectViewer"]);
    expect(allowed(OTHER, through({ projectRole: "viewer" }))).toEqual(["read"]);
  });

  test("parents and children of the family the task's group is shared with edit and claim it", () => {
    expect(allowed(OTHER, through({ familyRole: "parent" }))).toEqual(["read", "edit", "claim"]);
    expect(allowed(OTHER, through({ familyRole: "child" }))).toEqual(["read", "edit", "claim"]);
  });

  test("an owner who is also assigned keeps every right of both", () => {
    const own = { ...task, assigneeIds: [OWNER] };
    expect(taskRelations(OWNER, own)).toEqual(["owner", "assignee"]);
    expect(allowed(OWNER, own)).toEqual(["read", "edit", "manage", "delete", "share", "transfer"]);
  });

  test("without any link, someone neither owner, assignee nor collaborator has no relation and no right", () => {
    expect(taskRelations(OTHER, task)).toEqual([]);
    expect(allowed(OTHER)).toEqual([]);
  });

  test("a refusal is a 403 that says who may", () => {
    expect(() => requireOnTask(ASSIGNEE, task, "delete")).toThrow(AppError);
    let refusal: unknown;
    try {
      requireOnTask(OTHER, through({ projectRole: "viewer" }), "edit");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 403, message: expect.stringContaining("Only the task's owner, assignees") });
    expect(() => requireOnTask(OWNER, task, "delete")).not.toThrow();
  });
});
