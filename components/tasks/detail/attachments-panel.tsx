"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { invalidFields } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import type { MediaItemOutput } from "@/lib/media/schema";
import { noAnswer, useFailureMessage, type Announce } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * The task's attachments (lib/media): a list with each item's kind, size, transcription and download link, a delete
 * button for the uploader and the task's owner, and an upload form for those who may edit the task. The chosen file
 * is read in the browser and sent base64-encoded; its kind is preset from the file's type and can be changed (the
 * server decides from the bytes and refuses a mismatch). Pending transcriptions are read again every few seconds.
 */

type Kind = MediaItemOutput["kind"];
const KINDS: readonly Kind[] = ["photo", "audio", "video", "text"];
const POLL_MS = 3000;

/** The kind a browser's file type suggests. */
function kindOf(type: string): Kind {
  if (type.startsWith("image/")) return "photo";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("video/")) return "video";
  return "text";
}

/** The file's bytes as base64 (a data: URL without its prefix). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function KindIcon({ kind }: { kind: Kind }) {
  const paths: Record<Kind, string> = {
    photo: "M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5M15 9h.01",
    audio: "M9 18V6l10-2v12M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3zM19 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z",
    video: "M3 6h13v12H3zM16 10l5-3v10l-5-3",
    text: "M6 3h9l4 4v14H6zM9 12h7M9 16h7M9 8h4",
  };
  return (
    <svg className="media-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={paths[kind]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

interface AttachmentsPanelProps {
  taskId: string;
  meId: string;
  taskOwnerId: string;
  canUpload: boolean;
  initial: MediaItemOutput[];
  announce: Announce;
}

export function AttachmentsPanel({ taskId, meId, taskOwnerId, canUpload, initial, announce }: AttachmentsPanelProps) {
  const t = useTranslations("Media");
  const format = useFormatter();
  const failure = useFailureMessage();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState(initial);
  const [kind, setKind] = useState<Kind>("photo");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const readItems = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/media", { params: { path: { id: taskId } } }).catch(noAnswer);
    if (answer.ok) setItems(answer.body.items);
  }, [taskId]);

  const pending = items.some((item) => item.transcription.status === "pending");
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void readItems(), POLL_MS);
    return () => clearInterval(timer);
  }, [pending, readItems]);

  function problemMessage(status: number, body: unknown): string {
    const fields = invalidFields(body);
    if (status === 413) return t("errorTooLarge");
    if (status === 415) return fields.includes("kind") ? t("errorKindMismatch") : t("errorUnsupported");
    if (status === 400 && fields.includes("filename")) return t("errorFilename");
    if (status === 400) return t("errorUnreadable");
    if (status === 409) return t("errorTooMany");
    return failure(status);
  }

  async function upload(data: FormData) {
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setError(t("errorNoFile"));
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api
        .POST("/api/v1/tasks/{id}/media", {
          params: { path: { id: taskId } },
          body: { kind, filename: file.name, contentType: file.type || undefined, data: await readBase64(file) },
        })
        .catch(noAnswer);
      if (answer.ok) {
        const added = answer.body;
        setItems((current) => [...current.filter((item) => item.id !== added.id), added]);
        if (fileInput.current) fileInput.current.value = "";
        announce(t("uploaded", { name: added.filename }));
      } else {
        setError(problemMessage(answer.status, answer.body));
      }
    } catch {
      setError(t("errorUnreadable"));
    } finally {
      setBusy(false);
    }
  }

  async function remove(item: MediaItemOutput) {
    const answer = await api.DELETE("/api/v1/media/{id}", { params: { path: { id: item.id } } }).catch(noAnswer);
    if (answer.ok || answer.status === 404) {
      setItems((current) => current.filter((other) => other.id !== item.id));
      announce(t("deleted", { name: item.filename }));
    } else {
      setError(failure(answer.status));
    }
  }

  const size = (bytes: number) =>
    bytes < 1024
      ? format.number(bytes, { style: "unit", unit: "byte", unitDisplay: "short" })
      : bytes < 1024 * 1024
        ? format.number(bytes / 1024, { style: "unit", unit: "kilobyte", unitDisplay: "short", maximumFractionDigits: 1 })
        : format.number(bytes / (1024 * 1024), {
            style: "unit",
            unit: "megabyte",
            unitDisplay: "short",
            maximumFractionDigits: 1,
          });

  return (
    <section className="task-card media-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("title")}</h2>
      {items.length === 0 ? (
        <p className="auth-hint">{t("empty")}</p>
      ) : (
        <ul className="media-list">
          {items.map((item) => (
            <li key={item.id} className="media-item">
              <KindIcon kind={item.kind} />
              <div className="media-body">
                <a href={item.contentUrl} download={item.filename} className="media-name" dir="auto">
                  {item.filename}
                </a>
                <span className="media-meta">
                  {t(`kind.${item.kind}`)} · {size(item.sizeBytes)}
                </span>
                {item.transcription.status !== "none" && (
                  <p className={`media-transcript media-transcript-${item.transcription.status}`}>
                    {item.transcription.status === "done" ? (
                      <>
                        <span className="media-visually-hidden">{t("transcript")}: </span>
                        <q dir="auto">{item.transcription.text}</q>
                      </>
                    ) : (
                      t(`transcription.${item.transcription.status}`)
                    )}
                  </p>
                )}
              </div>
              {(item.uploaderId === meId || taskOwnerId === meId) && (
                <button type="button" className="button media-delete" onClick={() => void remove(item)}>
                  {t("delete")}
                  <span className="media-visually-hidden"> {item.filename}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError id={`${id}-error`} message={error} />
      {canUpload && (
        <form className="media-upload" action={(data) => void upload(data)} aria-describedby={error ? `${id}-error` : undefined}>
          <div className="auth-field">
            <label htmlFor={`${id}-file`}>{t("fileLabel")}</label>
            <input
              ref={fileInput}
              id={`${id}-file`}
              name="file"
              type="file"
              accept="image/*,audio/*,video/*,text/plain,.txt,.md"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                if (file) setKind(kindOf(file.type));
              }}
            />
          </div>
          <div className="auth-field">
            <label htmlFor={`${id}-kind`}>{t("kindLabel")}</label>
            <select id={`${id}-kind`} value={kind} onChange={(event) => setKind(event.currentTarget.value as Kind)}>
              {KINDS.map((option) => (
                <option key={option} value={option}>
                  {t(`kind.${option}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
            {busy ? t("uploading") : t("upload")}
          </button>
        </form>
      )}
    </section>
  );
}
