import type { ReactNode } from "react";

/**
 * A card of /{locale}/admin that is one table: its heading, a lead paragraph, and the table with a caption for
 * screen readers and a header row of `columns` (label by key). The body's rows are the children.
 */
export function AdminTableSection(props: {
  id: string;
  title: string;
  lead: string;
  className: string;
  columns: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <section className="admin-card" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <p className="admin-summary">{props.lead}</p>
      <table className={`admin-table ${props.className}`}>
        <caption className="admin-visually-hidden">{props.title}</caption>
        <thead>
          <tr>
            {Object.entries(props.columns).map(([key, label]) => (
              <th key={key} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </section>
  );
}
