"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { api } from "@/lib/api-client/client";
import { Field } from "@/components/goals/goal-fields";
import type { TemplateOutput } from "@/lib/templates/schema";

/*
 * The templates page in the browser: every template with a preview of its tasks (due dates as "n days later at
 * hh:mm" from the day it is applied), a form to apply it to one of the user's groups from a start date, and a
 * form to save one of their groups (its open tasks) as a new template of their own, which they may delete.
 */

interface Choice {
  id: string;
  name: string;
}

type Message = { kind: "error" | "status"; text: string; href?: string };

const pad = (value: number) => String(value).padStart(2, "0");

export function TemplateLibrary(props: { templates: TemplateOutput[]; groups: Choice[]; today: string; tasksHref: string }) {
  const t = useTranslations("Templates");
  const [templates, setTemplates] = useState(props.templates);
  const [message, setMessage] = useState<Message>();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<Message>) {
    if (busy) return;
    setBusy(true);
    setMessage(undefined);
    setMessage(await action().catch(() => ({ kind: "error" as const, text: t("errorGeneric") })));
    setBusy(false);
  }

  const apply = (template: TemplateOutput, data: FormData) =>
    run(async () => {
      const startDate = String(data.get("startDate") ?? "");
      const answer = await api.POST("/api/v1/templates/{id}/apply", {
        params: { path: { id: template.id } },
        body: { groupId: String(data.get("groupId")), ...(startDate ? { startDate } : {}) },
      });
      if (answer.ok) {
        return {
          kind: "status",
          text: t("applied", { count: answer.body.tasks.length, name: template.name }),
          href: props.tasksHref,
        };
      }
      return { kind: "error", text: answer.status === 400 ? t("errorApply") : t("errorGeneric") };
    });

  const saveGroup = (data: FormData) =>
    run(async () => {
      const name = String(data.get("name") ?? "").trim();
      const answer = await api.POST("/api/v1/templates/from-group/{id}", {
        params: { path: { id: String(data.get("groupId")) } },
        body: name ? { name } : {},
      });
      if (answer.ok) {
        const made = answer.body;
        setTemplates((current) => [...current, made]);
        return { kind: "status", text: t("saved", { name: made.name }) };
      }
      if (answer.status === 409) return { kind: "error", text: t("errorNoOpenTasks") };
      return { kind: "error", text: answer.status === 400 ? t("errorName") : t("errorGeneric") };
    });

  const remove = (template: TemplateOutput) =>
    run(async () => {
      const answer = await api.DELETE("/api/v1/templates/{id}", { params: { path: { id: template.id } } });
      if (!answer.ok) return { kind: "error", text: t("errorGeneric") };
      setTemplates((current) => current.filter((item) => item.id !== template.id));
      return { kind: "status", text: t("deleted", { name: template.name }) };
    });

  return (
    <>
      <p
        className={message?.kind === "error" ? "goal-form-error" : "goal-form-status"}
        role={message?.kind === "error" ? "alert" : "status"}
      >
        {message?.text} {message?.href && <a href={message.href}>{t("openTasks")}</a>}
      </p>
      <ul className="template-list">
        {templates.map((template) => (
          <li key={template.id}>
            <TemplateCard
              template={template}
              groups={props.groups}
              today={props.today}
              busy={busy}
              onApply={apply}
              onDelete={remove}
            />
          </li>
        ))}
      </ul>
      <section className="goal-section" aria-labelledby="save-group-title">
        <h2 id="save-group-title">{t("saveGroupTitle")}</h2>
        <p className="goal-lead">{t("saveGroupLead")}</p>
        <form
          className="goal-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void saveGroup(new FormData(event.currentTarget));
          }}
        >
          <div className="goal-form-row">
            <Field label={t("groupLabel")}>
              {(control) => (
                <select {...control} name="groupId">
                  {props.groups.map((group) => (
                    <option key={group.id} value={group.id}>
                      {group.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t("nameLabel")} hint={t("nameHint")}>
              {(control) => <input {...control} name="name" type="text" maxLength={200} dir="auto" autoComplete="off" />}
            </Field>
          </div>
          <div className="goal-actions">
            <button className="button" type="submit" disabled={busy} aria-busy={busy}>
              {t("saveGroup")}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}

function TemplateCard(props: {
  template: TemplateOutput;
  groups: Choice[];
  today: string;
  busy: boolean;
  onApply: (template: TemplateOutput, data: FormData) => void;
  onDelete: (template: TemplateOutput) => void;
}) {
  const t = useTranslations("Templates");
  const id = useId();
  const { template } = props;
  return (
    <article className="goal-section template-card" aria-labelledby={`${id}-name`}>
      <div className="goal-title-row">
        <h2 id={`${id}-name`} dir="auto">
          {template.name}
        </h2>
        <span className="template-kind">{template.builtIn ? t("builtIn") : t("yours")}</span>
      </div>
      {template.description && (
        <p className="goal-lead" dir="auto">
          {template.description}
        </p>
      )}
      <details>
        <summary>{t("preview", { count: template.tasks.length })}</summary>
        <ol className="template-tasks">
          {template.tasks.map((task, index) => (
            <li key={index}>
              <span dir="auto">{task.title}</span>{" "}
              <span className="goal-hint">
                {task.dueAfter
                  ? t("dueAfter", { days: task.dueAfter.days, time: `${pad(task.dueAfter.hours)}:${pad(task.dueAfter.minutes)}` })
                  : t("noDue")}
              </span>
              {task.subtasks.length > 0 && (
                <ul>
                  {task.subtasks.map((subtask, position) => (
                    <li key={position} dir="auto">
                      {subtask}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </details>
      <form
        className="goal-form"
        noValidate
        aria-label={t("applyLabel", { name: template.name })}
        onSubmit={(event) => {
          event.preventDefault();
          props.onApply(template, new FormData(event.currentTarget));
        }}
      >
        <div className="goal-form-row">
          <Field label={t("groupLabel")}>
            {(control) => (
              <select {...control} name="groupId">
                {props.groups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t("startDateLabel")} hint={t("startDateHint")}>
            {(control) => <input {...control} name="startDate" type="date" defaultValue={props.today} />}
          </Field>
        </div>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={props.busy} aria-busy={props.busy}>
            {t("apply")}
          </button>
          {!template.builtIn && (
            <button className="button" type="button" disabled={props.busy} onClick={() => props.onDelete(template)}>
              {t("delete")}
            </button>
          )}
        </div>
      </form>
    </article>
  );
}
