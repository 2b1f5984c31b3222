import { useTranslations } from "next-intl";

export interface MemberWorkload {
  userId: string;
  name: string;
  active: number;
  pending: number;
  completed: number;
  overdue: number;
}

/**
 * Each member's share of a team's or project's tasks: in progress, to do, done and overdue (`GET
 * /user-groups/{id}/workload`, `GET /projects/{id}/workload`).
 */
export function WorkloadTable({ items, captionId }: { items: readonly MemberWorkload[]; captionId: string }) {
  const t = useTranslations("Teams");
  return (
    // On a narrow screen the table scrolls sideways: the region takes focus so that keyboard users can scroll it.
    <div className="workload-scroll" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className="workload-table" aria-labelledby={captionId}>
        <thead>
          <tr>
            <th scope="col">{t("workloadMember")}</th>
            <th scope="col">{t("workloadActive")}</th>
            <th scope="col">{t("workloadPending")}</th>
            <th scope="col">{t("workloadCompleted")}</th>
            <th scope="col">{t("workloadOverdue")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.userId}>
              <th scope="row" dir="auto">
                {item.name}
              </th>
              <td>{item.active}</td>
              <td>{item.pending}</td>
              <td>{item.completed}</td>
              <td>{item.overdue}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
