import Link from "next/link";
import { useTranslations } from "next-intl";
import type { TaskPage } from "@/components/tasks/list/use-task-list";
import { canManage, CIRCLES, type CircleKind, type CircleRole } from "./circle-kind";
import type { CircleSummary } from "./circle-list";
import { DeleteCircle, RenameCircle } from "./circle-settings";
import { CircleTasks } from "./circle-tasks";
import { InviteForm } from "./invite-form";
import { MemberList, type CircleMember } from "./member-list";
import { WorkloadTable, type MemberWorkload } from "./workload-table";

interface Props {
  kind: CircleKind;
  locale: string;
  userId: string;
  timeZone: string;
  now: string;
  circle: CircleSummary;
  members: readonly CircleMember[];
  workload: readonly MemberWorkload[];
  tasks: { queryString: string; initial: TaskPage; groupNames: Readonly<Record<string, string>> };
  limits: { name: number; description: number };
}

/**
 * One team's or project's page: its name and the user's role, its tasks, its members (roles, remove, leave),
 * the workload per member, inviting (owners and admins), renaming (owners and admins) and deleting
 * (owners). What a role may not do is not offered; the API refuses it anyway.
 */
export function CircleDetail({ kind, locale, userId, timeZone, now, circle, members, workload, tasks, limits }: Props) {
  const t = useTranslations("Teams");
  const role: CircleRole = circle.role;
  const path = CIRCLES[kind].path;
  return (
    <>
      <header className="circle-header">
        <a className="circle-back" href={`/${locale}/${path}`}>
          {t(`${kind}.back`)}
        </a>
        <h1 dir="auto">{circle.name}</h1>
        {circle.description && (
          <p className="circle-lead" dir="auto">
            {circle.description}
          </p>
        )}
        <p className="circle-meta">
          <span className={`circle-role circle-role-${role}`}>{t("yourRole", { role: t(`role.${role}`) })}</span>
          <span>{t("memberCount", { count: circle.memberCount })}</span>
        </p>
      </header>
      <section className="circle-section" aria-labelledby="circle-tasks-title">
        <div className="circle-section-head">
          <h2 id="circle-tasks-title">{t("tasksTitle")}</h2>
          <Link className="button" href={`/${locale}/board?${kind === "team" ? "userGroupId" : "projectId"}=${circle.id}`}>
            {t("openBoard")}
          </Link>
        </div>
        <CircleTasks
          locale={locale}
          userId={userId}
          timeZone={timeZone}
          now={now}
          queryString={tasks.queryString}
          initial={tasks.initial}
          groupNames={tasks.groupNames}
          labelledBy="circle-tasks-title"
        />
      </section>
      <section className="circle-section" aria-labelledby="circle-members-title">
        <h2 id="circle-members-title">{t("membersTitle")}</h2>
        <MemberList kind={kind} locale={locale} id={circle.id} userId={userId} myRole={role} members={members} />
      </section>
      {workload.length > 0 && (
        <section className="circle-section" aria-labelledby="circle-workload-title">
          <h2 id="circle-workload-title">{t("workloadTitle")}</h2>
          <p className="goal-hint">{t("workloadHint")}</p>
          <WorkloadTable items={workload} captionId="circle-workload-title" />
        </section>
      )}
      {canManage(role) && (
        <section className="circle-section" aria-labelledby="circle-invite-title">
          <h2 id="circle-invite-title">{t("inviteTitle")}</h2>
          <InviteForm kind={kind} id={circle.id} />
        </section>
      )}
      {canManage(role) && (
        <section className="circle-section" aria-labelledby="circle-settings-title">
          <h2 id="circle-settings-title">{t("renameTitle")}</h2>
          <RenameCircle
            kind={kind}
            locale={locale}
            id={circle.id}
            name={circle.name}
            description={circle.description}
            limits={limits}
          />
          {role === "owner" && <DeleteCircle kind={kind} locale={locale} id={circle.id} name={circle.name} />}
        </section>
      )}
    </>
  );
}
