/**
 * The `operationId` of every API operation (what generated clients name their functions), made from the method and
 * the path by one rule, so that a route added later gets a readable one without anyone writing it:
 *
 *   GET /tasks → listTasks · POST /tasks → createTask · GET /tasks/{id} → getTask · PATCH /tasks/{id} → updateTask ·
 *   PUT /groups/order → setGroupsOrder · DELETE /tasks/{id} → deleteTask · POST /tasks/{id}/move → moveTask ·
 *   GET /tasks/{id}/subtasks → listTaskSubtasks · POST /collaboration-requests/{id}/accept → acceptCollaborationRequest
 *
 * A segment followed by a parameter is singular (`/tasks/{id}/…` → `Task…`); a POST ending in a known verb is that
 * action on what precedes it. Where the rule reads badly, a route says `operationId` itself or is listed in
 * OPERATION_ID_OVERRIDES (tests/integration/openapi-completeness.test.ts checks that each is unique and each override
 * names a served operation).
 */

/** Last path segments that name an action (POST /tasks/{id}/move is `moveTask`, not `createTaskMove`). */
const ACTION_VERBS = new Set([
  "accept",
  "apply",
  "cancel",
  "check",
  "claim",
  "confirm",
  "decline",
  "disable",
  "dismiss",
  "enable",
  "export",
  "import",
  "install",
  "leave",
  "move",
  "read",
  "reject",
  "replay",
  "start",
  "stop",
  "test",
  "withdraw",
]);

/** Where the rule reads badly or two paths would get the same name: `METHOD /path` (without /api/v1) → operationId. */
export const OPERATION_ID_OVERRIDES: Readonly<Record<string, string>> = {
  "GET /healthz": "checkLiveness",
  "GET /readyz": "checkReadiness",
  "POST /auth/register": "register",
  "POST /auth/login": "login",
  "POST /auth/logout": "logout",
  "POST /auth/password-reset": "requestPasswordReset",
  "POST /auth/password-reset/confirm": "confirmPasswordReset",
  "POST /auth/verify-email": "verifyEmail",
  "POST /auth/verify-email/resend": "resendVerificationEmail",
  "GET /auth/me": "getCurrentUser",
  "POST /auth/change-password": "changePassword",
  "PATCH /auth/profile": "updateProfile",
  "GET /auth/sessions": "listSessions",
  "DELETE /auth/sessions/{id}": "deleteSession",
  "POST /tokens": "createAccessToken",
  "GET /tokens": "listAccessTokens",
  "DELETE /tokens/{id}": "deleteAccessToken",
  "GET /auth/export-data": "exportAccountData",
  "DELETE /auth/delete-account": "deleteAccount",
  "DELETE /delete-account": "deleteAccountAtSiteRoot",
  "POST /webauthn/register/options": "getPasskeyRegistrationOptions",
  "POST /webauthn/register/verify": "registerPasskey",
  "POST /webauthn/auth/options": "getPasskeySignInOptions",
  "POST /webauthn/auth/verify": "signInWithPasskey",
  "GET /webauthn/devices": "listPasskeys",
  "PATCH /webauthn/devices/{id}": "updatePasskey",
  "DELETE /webauthn/devices/{id}": "deletePasskey",
  "POST /errors/report": "reportClientError",
  "GET /errors/recent": "listRecentErrors",
  "GET /errors/stats": "getErrorStats",
  "POST /tasks/parse": "parseQuickAdd",
  "POST /tasks/{id}/collaboration-requests": "requestCollaboration",
  "DELETE /tasks/{id}/collaborators/{userId}": "removeTaskCollaborator",
  "POST /projects/{id}/members": "addProjectMember",
  "DELETE /projects/{id}/members/{userId}": "removeProjectMember",
  "POST /family": "createFamily",
  "POST /family/members": "addFamilyMember",
  "DELETE /family/members/{userId}": "removeFamilyMember",
  "PUT /family/groups/{groupId}": "shareGroupWithFamily",
  "DELETE /family/groups/{groupId}": "unshareGroupFromFamily",
  "GET /invitations/received": "listReceivedInvitations",
  "GET /invitations/preview/{token}": "previewInvitation",
  "POST /invite/{token}/accept": "acceptInvitationByToken",
  "GET /notifications/unread-count": "countUnreadNotifications",
  "POST /notifications/read-all": "markAllNotificationsRead",
  "POST /notifications/{id}/read": "markNotificationRead",
  "GET /notification-prefs/{taskId}": "getTaskNotificationPrefs",
  "PUT /notification-prefs/{taskId}": "setTaskNotificationPrefs",
  "GET /reports/weekly": "getWeeklyReport",
  "GET /reports/weekly/{weekStart}": "getWeeklyReportOfWeek",
  "POST /push/unsubscribe": "unsubscribePush",
  "POST /push/test": "sendTestPush",
  "POST /push/send": "sendPush",
  "POST /email/send": "sendEmail",
  "POST /email/reminder": "sendEmailReminder",
  "POST /webhooks/{id}/rotate-secret": "rotateWebhookSecret",
  "POST /webhooks/{id}/test": "testWebhook",
  "PUT /goals/{id}/tasks/{taskId}": "addGoalTask",
  "DELETE /goals/{id}/tasks/{taskId}": "removeGoalTask",
  "POST /goals/{id}/study-plan": "createGoalStudyPlan",
  "POST /goals/{id}/study-plan/apply": "applyGoalStudyPlan",
  "POST /tasks/{id}/media": "uploadTaskMedia",
  "GET /media/{id}/content": "downloadMediaContent",
  "POST /chat": "sendChatMessage",
  "GET /briefing": "getBriefing",
  "POST /user-groups/{id}/members": "addUserGroupMember",
  "DELETE /user-groups/{id}/members/{userId}": "removeUserGroupMember",
  "POST /activity/analysis": "analyzeActivity",
  "POST /connectors/{id}/import": "runConnectorImport",
  "POST /connectors/{id}/export": "runConnectorExport",
  "POST /connectors/{id}/webhook-secret": "createConnectorWebhookSecret",
  "POST /connectors/{id}/webhook": "receiveConnectorWebhook",
  "POST /review-cards/{id}/reviews": "reviewCard",
  "GET /review-cards/{id}/reviews": "listCardReviews",
  "GET /reviews/due": "listDueReviewCards",
  "GET /erp/status": "getErpStatus",
  "POST /erp/modules/install": "installErpModule",
  "GET /learning/status": "getLearningStatus",
  "POST /templates/from-group/{id}": "createTemplateFromGroup",
  "POST /templates/from-project/{id}": "createTemplateFromProject",
  "POST /tasks/{id}/timer/start": "startTaskTimer",
  "POST /timer/stop": "stopTimer",
  "GET /tasks/{id}/time": "getTaskTime",
  "GET /tasks/view-counts": "countTaskViews",
  "GET /time-entries/report": "getTimeReport",
  "GET /time-entries/export.csv": "exportTimeEntriesCsv",
  "GET /calendar/{file}": "getCalendarFeedFile",
  "GET /gamification/me": "getGamificationProfile",
  "PATCH /gamification/me": "updateGamificationProfile",
  "GET /accounting/status": "getAccountingStatus",
  "POST /deploy/webhook": "receiveDeployWebhook",
  "PUT /admin/modules/{id}": "setModule",
  "DELETE /admin/modules/{id}": "resetModule",
  "GET /auth/providers": "listSignInProviders",
  "GET /auth/{provider}": "startOAuthSignIn",
  "GET /auth/{provider}/callback": "finishOAuthSignIn",
};

function words(segment: string): string[] {
  return segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

function pascal(parts: string[]): string {
  return parts.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/** `tasks` → `task`, `entries` → `entry`, `statuses` → `status`; `status`, `access`, `analysis`, `people` stay. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (/[^siu]s$/.test(word)) return word.slice(0, -1);
  return word;
}

function isPlural(word: string): boolean {
  return singular(word) !== word;
}

/** The operationId the rule gives `method path` (path as the route declares it, `{param}` style, without /api/v1). */
export function operationIdFor(method: string, path: string): string {
  const verb = method.toUpperCase();
  const override = OPERATION_ID_OVERRIDES[`${verb} ${path}`];
  if (override) return override;
  const segments = path.split("/").filter(Boolean);
  const endsInParameter = segments.at(-1)?.startsWith("{") ?? false;
  // Each static segment's words; the last word of a segment followed by a parameter is singular.
  const nouns: string[][] = [];
  segments.forEach((segment, index) => {
    if (segment.startsWith("{")) return;
    const parts = words(segment);
    if (segments[index + 1]?.startsWith("{")) parts.push(singular(parts.pop() ?? ""));
    nouns.push(parts);
  });
  const last = nouns.at(-1) ?? [];
  const lastWord = last.at(-1) ?? "";
  if (verb === "POST" && !endsInParameter && nouns.length > 1 && ACTION_VERBS.has(segments.at(-1) ?? "")) {
    return `${segments.at(-1)}${pascal(nouns.slice(0, -1).flat())}`;
  }
  const noun = (parts: string[][]) => pascal(parts.flat());
  switch (verb) {
    case "GET":
      return !endsInParameter && isPlural(lastWord) ? `list${noun(nouns)}` : `get${noun(nouns)}`;
    case "POST":
      if (!endsInParameter && isPlural(lastWord))
        return `create${noun([...nouns.slice(0, -1), [...last.slice(0, -1), singular(lastWord)]])}`;
      return `post${noun(nouns)}`;
    case "PUT":
      return `set${noun(nouns)}`;
    case "PATCH":
      return `update${noun(nouns)}`;
    case "DELETE":
      return `delete${noun(nouns)}`;
    default:
      return `${verb.toLowerCase()}${noun(nouns)}`;
  }
}
