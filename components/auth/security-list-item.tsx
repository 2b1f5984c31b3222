import type { ReactNode } from "react";

/*
 * One row of the security page's lists (sessions, personal access tokens): a name, an optional line under it, a
 * list of facts (term and value), the row's error when its action failed, and one action button that names the
 * row for screen readers and says when it is working.
 */

export interface SecurityListItemProps {
  /** The row's element id prefix: `{idPrefix}-name` labels the row and describes its button. */
  idPrefix: string;
  /** Extra attributes on the row (`data-session-id`...), for tests and styling. */
  attributes?: Record<`data-${string}`, string>;
  name: ReactNode;
  label?: ReactNode;
  facts: ReadonlyArray<{ term: ReactNode; value: ReactNode }>;
  /** Shown as an alert under the facts when set. */
  error?: string | null;
  action: { label: string; workingLabel: string; busy: boolean; onClick: () => void };
}

export function SecurityListItem({ idPrefix, attributes, name, label, facts, error, action }: SecurityListItemProps) {
  const nameId = `${idPrefix}-name`;
  return (
    <li className="passkey session" aria-labelledby={nameId} {...attributes}>
      <div className="passkey-body">
        <h3 id={nameId} className="passkey-name">
          <bdi>{name}</bdi>
        </h3>
        {label && <p className="passkey-label">{label}</p>}
        <dl className="passkey-dates">
          {facts.map((fact, index) => (
            <div key={index}>
              <dt>{fact.term}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
        {error && (
          <p className="auth-form-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="passkey-actions">
        <button
          className="button"
          type="button"
          aria-describedby={nameId}
          disabled={action.busy}
          aria-busy={action.busy}
          onClick={action.onClick}
        >
          {action.busy ? action.workingLabel : action.label}
        </button>
      </div>
    </li>
  );
}
