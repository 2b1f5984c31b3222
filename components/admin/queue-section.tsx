import { getTranslations } from "next-intl/server";
import type { QueueSummaryOutput } from "@/lib/queue/schema";
import { AdminTableSection } from "./admin-table-section";

/*
 * The work queue of /{locale}/admin (`GET /admin/queue`): each kind of queued work with how many of its items wait,
 * run, died and finished. The items themselves, and cancelling one, are `GET /admin/queue/items` and its cancel route.
 */
export async function QueueSection({ summary }: { summary: QueueSummaryOutput }) {
  const t = await getTranslations("Admin");
  const columns = {
    kind: t("columnQueueKind"),
    pending: t("columnPending"),
    running: t("columnQueueRunning"),
    dead: t("columnDead"),
    done: t("columnQueueDone"),
  };
  return (
    <AdminTableSection id="queue" title={t("queueTitle")} lead={t("queueLead")} className="admin-queue" columns={columns}>
      {summary.kinds.length === 0 && (
        <tr>
          <td colSpan={5}>{t("queueEmpty")}</td>
        </tr>
      )}
      {summary.kinds.map((kind) => (
        <tr key={kind.kind} data-queue={kind.kind}>
          <th scope="row" data-label={columns.kind} className="admin-code" dir="ltr">
            {kind.kind}
          </th>
          <td data-label={columns.pending}>{kind.pending}</td>
          <td data-label={columns.running}>{kind.running}</td>
          <td data-label={columns.dead}>
            {kind.dead > 0 ? <span className="admin-badge disabled">{kind.dead}</span> : kind.dead}
          </td>
          <td data-label={columns.done}>{kind.done}</td>
        </tr>
      ))}
    </AdminTableSection>
  );
}
