import { useTranslations } from "next-intl";
import { CIRCLES, type CircleKind, type CircleRole } from "./circle-kind";

export interface CircleSummary {
  id: string;
  name: string;
  description: string;
  role: CircleRole;
  memberCount: number;
  tasks?: { total: number; open: number };
}

/** The user's teams or projects as cards: the name (to its page), the user's role, members and open tasks. */
export function CircleList({ kind, items, locale }: { kind: CircleKind; items: readonly CircleSummary[]; locale: string }) {
  const t = useTranslations("Teams");
  if (items.length === 0) return <p className="circle-empty">{t(`${kind}.empty`)}</p>;
  return (
    <ul className="circle-list">
      {items.map((item) => (
        <li key={item.id} className="circle-card">
          <h3 dir="auto">
            <a href={`/${locale}/${CIRCLES[kind].path}/${item.id}`}>{item.name}</a>
          </h3>
          {item.description && (
            <p className="circle-description" dir="auto">
              {item.description}
            </p>
          )}
          <p className="circle-meta">
            <span className={`circle-role circle-role-${item.role}`}>{t(`role.${item.role}`)}</span>
            <span>{t("memberCount", { count: item.memberCount })}</span>
            {item.tasks && <span>{t("openTasks", { open: item.tasks.open, total: item.tasks.total })}</span>}
          </p>
        </li>
      ))}
    </ul>
  );
}
