import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A local Moodle site speaking the subset of the REST web services the learning connector uses
 * (/work/shared/reference/protocols.md B2, after moodle/moodle webservice/rest/locallib.php and each function's
 * external description), strict the way Moodle is:
 * - only `{site}/webservice/rest/server.php`; parameters from the query string and the form-encoded body, arrays in
 *   PHP's bracket syntax (`courseids[0]=3`);
 * - `wstoken` must be a known token and `wsfunction` one its external service lists (else `invalidtoken`,
 *   `accessexception`); an unknown function is `invalidrecord`;
 * - each function's parameters are validated like external_api::validate_parameters: a missing required one, an
 *   unexpected key or a value of the wrong type is `invalidparameter`;
 * - errors are HTTP 200 with `{exception, errorcode, message}`; without `moodlewsrestformat=json` the answer is
 *   Moodle's default XML, so a client forgetting it fails loudly;
 * - partial problems as `warnings[]`; switches to answer slowly or with an HTTP status, and to make one course's
 *   calls throw.
 */

export interface MoodleAssignment {
  id: number;
  cmid: number;
  name: string;
  duedate: number;
  intro: string;
}

export interface MoodleGradeItem {
  id: number;
  itemname: string | null;
  itemtype: string;
  itemmodule: string | null;
  iteminstance: number | null;
  graderaw: number | null;
  gradeformatted: string;
  grademin: number;
  grademax: number;
  percentageformatted: string;
  feedback: string;
  gradedategraded: number | null;
}

export interface MoodleCourse {
  id: number;
  shortname: string;
  fullname: string;
  summary: string;
  startdate: number;
  enddate: number;
  assignments: MoodleAssignment[];
  /** Activity completion state by course module id: 0 incomplete, 1 complete, 2 pass, 3 fail. */
  states: Record<number, number>;
  /** Completion tracking by course module id: 0 none, 1 manual, 2 automatic (the default). */
  tracking?: Record<number, number>;
  /** Course completion: true/false, or "nocriteriaset" (the course has no completion criteria: Moodle throws). */
  completion: boolean | "nocriteriaset";
  grades: MoodleGradeItem[];
  /** mod_assign_get_assignments leaves the course out with a warning (no access rights in its context). */
  assignWarning?: boolean;
  /** Makes one function throw for this course, as Moodle would (a capability missing...). */
  fail?: { wsfunction: string; exception: string; errorcode: string; message: string };
}

export interface MoodleToken {
  userId: number;
  functions: string[];
}

export const ALL_FUNCTIONS = [
  "core_webservice_get_site_info",
  "core_enrol_get_users_courses",
  "mod_assign_get_assignments",
  "core_completion_get_activities_completion_status",
  "core_completion_get_course_completion_status",
  "gradereport_user_get_grade_items",
  "core_completion_update_activity_completion_status_manually",
];

type Value = string | { [key: string]: Value };
type Params = Record<string, Value>;

class WsError extends Error {
  constructor(
    readonly exception: string,
    readonly errorcode: string,
    message: string,
    readonly debuginfo?: string,
  ) {
    super(message);
  }
}

const invalidParameter = (debuginfo: string) =>
  new WsError("invalid_parameter_exception", "invalidparameter", "Invalid parameter value detected", debuginfo);

/** PHP's parsing of `a[b][0]=x` pairs into nested arrays (here: objects keyed by the bracket contents). */
export function parsePhpForm(pairs: Iterable<[string, string]>, into: Params = {}): Params {
  for (const [rawKey, value] of pairs) {
    const match = rawKey.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    if (!match) throw invalidParameter(`Malformed parameter name ${rawKey}`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((each) => each[1]!)];
    let node: Record<string, Value> = into;
    path.forEach((key, index) => {
      if (key === "") throw invalidParameter(`Empty brackets in ${rawKey}: give each array element its index`);
      if (index === path.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (typeof next === "string") throw invalidParameter(`${rawKey} mixes a value and an array`);
      node = (node[key] = next ?? {}) as Record<string, Value>;
    });
  }
  return into;
}

// external_value / external_multiple_structure checks, the types used

type Spec =
  | { type: "int" | "bool" | "text"; required: boolean; default?: unknown }
  | { type: "list"; of: "int" | "text"; required: boolean };

function scalar(type: "int" | "bool" | "text", value: Value, name: string): unknown {
  if (typeof value !== "string")
    throw invalidParameter(`${name} => Invalid parameter value detected (Scalar type expected, array or object received.)`);
  if (type === "int") {
    if (!/^-?\d+$/.test(value))
      throw invalidParameter(
        `${name} => Invalid parameter value detected (Invalid external api parameter: the value is "${value}", the server was expecting "int" type)`,
      );
    return Number(value);
  }
  if (type === "bool") {
    if (!["0", "1", "true", "false"].includes(value))
      throw invalidParameter(`${name} => Invalid parameter value detected (the server was expecting "bool" type)`);
    return value === "1" || value === "true";
  }
  return value;
}

function validate(specs: Record<string, Spec>, params: Params): Record<string, unknown> {
  const unexpected = Object.keys(params).filter((key) => !(key in specs));
  if (unexpected.length) throw invalidParameter(`Unexpected keys (${unexpected.join(", ")}) detected in parameter array.`);
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined) {
      if (spec.required) throw invalidParameter(`Missing required key in single structure: ${name}`);
      if (spec.type === "list") result[name] = [];
      else if ("default" in spec) result[name] = spec.default;
      continue;
    }
    if (spec.type === "list") {
      if (typeof value === "string") throw invalidParameter(`${name} => Only arrays accepted. The bad value is: '${value}'`);
      const keys = Object.keys(value);
      if (!keys.every((key) => /^\d+$/.test(key))) throw invalidParameter(`${name} => Only arrays accepted (numeric keys)`);
      result[name] = keys.sort((a, b) => Number(a) - Number(b)).map((key) => scalar(spec.of, value[key]!, `${name}[${key}]`));
    } else {
      result[name] = scalar(spec.type, value, name);
    }
  }
  return result;
}

const FUNCTION_PARAMS: Record<string, Record<string, Spec>> = {
  core_webservice_get_site_info: { serviceshortnames: { type: "list", of: "text", required: false } },
  core_enrol_get_users_courses: {
    userid: { type: "int", required: true },
    returnusercount: { type: "bool", required: false, default: true },
  },
  mod_assign_get_assignments: {
    courseids: { type: "list", of: "int", required: false },
    capabilities: { type: "list", of: "text", required: false },
    includenotenrolledcourses: { type: "bool", required: false, default: false },
  },
  core_completion_get_activities_completion_status: {
    courseid: { type: "int", required: true },
    userid: { type: "int", required: true },
  },
  core_completion_get_course_completion_status: {
    courseid: { type: "int", required: true },
    userid: { type: "int", required: true },
  },
  core_completion_update_activity_completion_status_manually: {
    cmid: { type: "int", required: true },
    completed: { type: "bool", required: true },
  },
  gradereport_user_get_grade_items: {
    courseid: { type: "int", required: true },
    userid: { type: "int", required: false, default: 0 },
    groupid: { type: "int", required: false, default: 0 },
  },
};

function xml(value: unknown): string {
  if (Array.isArray(value)) return `<MULTIPLE>${value.map((each) => xml(each)).join("")}</MULTIPLE>`;
  if (value && typeof value === "object") {
    return `<SINGLE>${Object.entries(value)
      .map(([key, each]) => `<KEY name="${key}">${xml(each)}</KEY>`)
      .join("")}</SINGLE>`;
  }
  return value === null || value === undefined
    ? '<VALUE null="null"/>'
    : `<VALUE>${String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;")}</VALUE>`;
}

export interface MoodleServer {
  url: string;
  tokens: Map<string, MoodleToken>;
  courses: Map<number, MoodleCourse>;
  /** Moodle user id → the ids of the courses they are enrolled in. */
  enrolments: Map<number, number[]>;
  /** Every call received: its function and its parsed parameters. */
  calls: { wsfunction: string; params: Record<string, unknown> }[];
  /** Answers this slowly (ms). */
  delayMs: number;
  /** Answers every call with this HTTP status (0: normally). */
  httpStatus: number;
  /** Answers XML whatever the format asked (a proxy dropping parameters, say). */
  ignoreFormat: boolean;
  close(): Promise<void>;
}

export async function startMoodleServer(): Promise<MoodleServer> {
  const state: Omit<MoodleServer, "url" | "close"> = {
    tokens: new Map(),
    courses: new Map(),
    enrolments: new Map(),
    calls: [],
    delayMs: 0,
    httpStatus: 0,
    ignoreFormat: false,
  };

  function course(id: number): MoodleCourse {
    const found = state.courses.get(id);
    if (!found)
      throw new WsError("dml_missing_record_exception", "invalidrecord", "Can't find data record in database table course.");
    return found;
  }

  function enrolled(userId: number, courseId: number): MoodleCourse {
    const found = course(courseId);
    if (!(state.enrolments.get(userId) ?? []).includes(courseId))
      throw new WsError("moodle_exception", "notenroled", "User is not enrolled in this course");
    return found;
  }

  function failure(wsfunction: string, target: MoodleCourse) {
    if (target.fail?.wsfunction === wsfunction)
      throw new WsError(target.fail.exception, target.fail.errorcode, target.fail.message);
  }

  const handlers: Record<string, (params: Record<string, unknown>, token: MoodleToken) => unknown> = {
    core_webservice_get_site_info: (_params, token) => ({
      sitename: "Spolu Test Academy",
      username: `student${token.userId}`,
      firstname: "Test",
      lastname: "Student",
      fullname: "Test Student",
      lang: "en",
      userid: token.userId,
      siteurl: "https://moodle.example.com",
      userpictureurl: "https://moodle.example.com/theme/image.php/boost/core/1/u/f1",
      functions: token.functions.map((name) => ({ name, version: "2024100700" })),
      downloadfiles: 0,
      uploadfiles: 0,
      release: "4.5 (Build: 20241007)",
      version: "2024100700",
      mobilecssurl: "",
      advancedfeatures: [],
      usercanmanageownfiles: true,
      userquota: 0,
      usermaxuploadfilesize: -1,
      userhomepage: 1,
      siteid: 1,
      sitecalendartype: "gregorian",
      usercalendartype: "gregorian",
      theme: "boost",
    }),
    core_enrol_get_users_courses: (params) =>
      (state.enrolments.get(params.userid as number) ?? []).map((id) => {
        const each = course(id);
        const completed = each.completion === true;
        return {
          id: each.id,
          shortname: each.shortname,
          fullname: each.fullname,
          displayname: each.fullname,
          idnumber: "",
          visible: 1,
          summary: each.summary,
          summaryformat: 1,
          format: "topics",
          showgrades: true,
          lang: "",
          enablecompletion: true,
          completionhascriteria: each.completion !== "nocriteriaset",
          completionusertracked: true,
          category: 1,
          progress: each.assignments.length
            ? (100 * each.assignments.filter((a) => [1, 2].includes(each.states[a.cmid] ?? 0)).length) / each.assignments.length
            : null,
          completed,
          startdate: each.startdate,
          enddate: each.enddate,
          marker: 0,
          lastaccess: null,
          isfavourite: false,
          hidden: false,
          overviewfiles: [],
          showactivitydates: true,
          showcompletionconditions: true,
          ...(params.returnusercount ? { enrolledusercount: 12 } : {}),
        };
      }),
    mod_assign_get_assignments: (params, token) => {
      const warnings: unknown[] = [];
      const courses: unknown[] = [];
      for (const id of params.courseids as number[]) {
        const each = state.courses.get(id);
        if (!each || !(state.enrolments.get(token.userId) ?? []).includes(id)) {
          warnings.push({
            item: "course",
            itemid: id,
            warningcode: "2",
            message: "User is not enrolled or does not have requested capability",
          });
          continue;
        }
        if (each.assignWarning) {
          warnings.push({ item: "course", itemid: id, warningcode: "1", message: "No access rights in module context" });
          continue;
        }
        failure("mod_assign_get_assignments", each);
        courses.push({
          id: each.id,
          fullname: each.fullname,
          shortname: each.shortname,
          timemodified: 1_700_000_000,
          assignments: each.assignments.map((assignment) => ({
            id: assignment.id,
            cmid: assignment.cmid,
            course: each.id,
            name: assignment.name,
            nosubmissions: 0,
            submissiondrafts: 0,
            sendnotifications: 0,
            sendlatenotifications: 0,
            sendstudentnotifications: 1,
            duedate: assignment.duedate,
            allowsubmissionsfromdate: 0,
            grade: 100,
            timemodified: 1_700_000_000,
            completionsubmit: 1,
            cutoffdate: 0,
            gradingduedate: 0,
            teamsubmission: 0,
            requireallteammemberssubmit: 0,
            teamsubmissiongroupingid: 0,
            blindmarking: 0,
            hidegrader: 0,
            revealidentities: 0,
            attemptreopenmethod: "untilpass",
            maxattempts: -1,
            markingworkflow: 0,
            markingallocation: 0,
            requiresubmissionstatement: 0,
            preventsubmissionnotingroup: 0,
            configs: [],
            intro: assignment.intro,
            introformat: 1,
            introfiles: [],
            introattachments: [],
          })),
        });
      }
      return { courses, warnings };
    },
    core_completion_get_activities_completion_status: (params) => {
      const each = enrolled(params.userid as number, params.courseid as number);
      failure("core_completion_get_activities_completion_status", each);
      return {
        statuses: each.assignments.map((assignment) => ({
          cmid: assignment.cmid,
          modname: "assign",
          instance: assignment.id,
          state: each.states[assignment.cmid] ?? 0,
          timecompleted: each.states[assignment.cmid] ? 1_700_000_000 : 0,
          tracking: each.tracking?.[assignment.cmid] ?? 2,
          overrideby: null,
          valueused: false,
          hascompletion: (each.tracking?.[assignment.cmid] ?? 2) !== 0,
          isautomatic: (each.tracking?.[assignment.cmid] ?? 2) === 2,
          istrackeduser: true,
          uservisible: true,
          details: [],
        })),
        warnings: [],
      };
    },
    core_completion_get_course_completion_status: (params) => {
      const each = enrolled(params.userid as number, params.courseid as number);
      failure("core_completion_get_course_completion_status", each);
      if (each.completion === "nocriteriaset")
        throw new WsError("moodle_exception", "nocriteriaset", "No completion criteria set for this course");
      return {
        completionstatus: {
          completed: each.completion,
          aggregation: 1,
          completions: [
            {
              type: 4,
              title: "Activity completion",
              status: each.completion ? "Yes" : "No",
              complete: each.completion,
              timecompleted: null,
              details: {
                type: "Activity completion",
                criteria: "Assignments",
                requirement: "Marking yourself complete",
                status: "",
              },
            },
          ],
        },
        warnings: [],
      };
    },
    // completion/classes/external.php: the token's own user; only activities with manual completion tracking.
    core_completion_update_activity_completion_status_manually: (params, token) => {
      const cmid = params.cmid as number;
      const each = [...state.courses.values()].find((candidate) =>
        candidate.assignments.some((assignment) => assignment.cmid === cmid),
      );
      if (!each)
        throw new WsError(
          "dml_missing_record_exception",
          "invalidrecord",
          "Can't find data record in database table course_modules.",
        );
      if (!(state.enrolments.get(token.userId) ?? []).includes(each.id))
        throw new WsError("require_login_exception", "requireloginerror", "Course or activity not accessible. (Not enrolled)");
      failure("core_completion_update_activity_completion_status_manually", each);
      if ((each.tracking?.[cmid] ?? 2) !== 1)
        throw new WsError("moodle_exception", "cannotmanualctrack", "Activity does not have manual tracking");
      each.states[cmid] = params.completed ? 1 : 0;
      return { status: true, warnings: [] };
    },
    gradereport_user_get_grade_items: (params, token) => {
      const userId = params.userid === 0 ? token.userId : (params.userid as number);
      const each = enrolled(userId, params.courseid as number);
      failure("gradereport_user_get_grade_items", each);
      return {
        usergrades: [
          {
            courseid: each.id,
            courseidnumber: "",
            userid: userId,
            userfullname: "Test Student",
            useridnumber: "",
            maxdepth: 2,
            gradeitems: each.grades.map((item) => ({
              ...item,
              idnumber: "",
              categoryid: 1,
              outcomeid: null,
              scaleid: null,
              locked: false,
              cmid: null,
              weightraw: 0,
              gradeislocked: false,
              gradeisoverridden: false,
              gradehiddenbydate: false,
              gradeneedsupdate: false,
              gradeishidden: false,
              feedbackformat: 1,
            })),
          },
        ],
        warnings: [],
      };
    },
  };

  function answer(params: Params): { json: boolean; body: unknown } {
    const json = params.moodlewsrestformat === "json" && !state.ignoreFormat;
    if (params.moodlewsrestformat !== undefined && !["json", "xml"].includes(params.moodlewsrestformat as string)) {
      return {
        json: false,
        body: new WsError(
          "invalid_parameter_exception",
          "invalidparameter",
          "Invalid parameter value detected",
          "moodlewsrestformat",
        ),
      };
    }
    const { wstoken, wsfunction, moodlewsrestformat: _format, ...rest } = params;
    const token = typeof wstoken === "string" ? state.tokens.get(wstoken) : undefined;
    if (!token) return { json, body: new WsError("moodle_exception", "invalidtoken", "Invalid token - token not found") };
    if (typeof wsfunction !== "string" || !(wsfunction in handlers)) {
      return {
        json,
        body: new WsError(
          "dml_missing_record_exception",
          "invalidrecord",
          "Can't find data record in database table external_functions.",
        ),
      };
    }
    if (!token.functions.includes(wsfunction))
      return { json, body: new WsError("webservice_access_exception", "accessexception", "Access control exception") };
    try {
      const validated = validate(FUNCTION_PARAMS[wsfunction]!, rest);
      state.calls.push({ wsfunction, params: validated });
      return { json, body: handlers[wsfunction]!(validated, token) };
    } catch (error) {
      if (error instanceof WsError) return { json, body: error };
      throw error;
    }
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      setTimeout(() => {
        if (response.destroyed) return;
        const url = new URL(request.url ?? "/", "http://moodle.local");
        if (url.pathname !== "/webservice/rest/server.php") {
          response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
          return;
        }
        if (state.httpStatus) {
          response.writeHead(state.httpStatus, { "content-type": "text/html" }).end("<h1>Service unavailable</h1>");
          return;
        }
        let params: Params;
        try {
          params = parsePhpForm(url.searchParams.entries());
          if (request.method === "POST") {
            const type = request.headers["content-type"] ?? "";
            if (!type.startsWith("application/x-www-form-urlencoded"))
              throw invalidParameter(`The body must be form-encoded, not ${type || "nothing"}`);
            parsePhpForm(new URLSearchParams(Buffer.concat(chunks).toString("utf8")).entries(), params);
          }
        } catch (error) {
          const wsError = error as WsError;
          response.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              exception: wsError.exception,
              errorcode: wsError.errorcode,
              message: wsError.message,
              debuginfo: wsError.debuginfo,
            }),
          );
          return;
        }
        const { json, body } = answer(params);
        // Moodle's REST server: HTTP 200 whatever happened.
        if (json) {
          const payload =
            body instanceof WsError
              ? {
                  exception: body.exception,
                  errorcode: body.errorcode,
                  message: body.message,
                  ...(body.debuginfo && { debuginfo: body.debuginfo }),
                }
              : body;
          response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
        } else {
          const text =
            body instanceof WsError
              ? `<?xml version="1.0" encoding="UTF-8" ?>\n<EXCEPTION class="${body.exception}">\n<ERRORCODE>${body.errorcode}</ERRORCODE>\n<MESSAGE>${body.message}</MESSAGE>\n</EXCEPTION>\n`
              : `<?xml version="1.0" encoding="UTF-8" ?>\n<RESPONSE>\n${xml(body)}\n</RESPONSE>\n`;
          response.writeHead(200, { "content-type": "application/xml; charset=utf-8" }).end(text);
        }
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as MoodleServer;
}
