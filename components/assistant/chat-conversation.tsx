"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { signInPath } from "@/components/auth/next-path";
import type { Locale } from "@/lib/i18n/locales";
import type { ChatActionOutput, ChatAnswerOutput, ChatMessageOutput } from "@/lib/assistant/schema";
import { AnsweredByNote } from "./answered-by";
import { ChatActionCard } from "./chat-action-card";
import { readServerSentEvents } from "./server-sent-events";

/*
 * The conversation of /{locale}/chat: the messages so far (server-rendered, oldest first), a box to ask, the
 * answer rendered as it streams in (POST /chat with Accept: text/event-stream), who answered, the actions the
 * assistant proposed, and clearing the conversation. Nothing is stored until an answer is complete: when it
 * breaks off, the question goes back into the box to be sent again. A message sent while an answer is still coming
 * is queued (shown as such) and sent, in order, once the answer ends; when an answer breaks off, the queued
 * messages go back into the box after its question, so nothing typed is lost.
 */

const MESSAGE_MAX = 2000;
const PAGE = 50;

type AnsweredBy = ChatMessageOutput["answeredBy"];
interface Pending {
  question: string;
  text: string;
  answeredBy: AnsweredBy;
  fallback: boolean;
}

interface Props {
  /** The latest messages, oldest first. */
  initial: ChatMessageOutput[];
  /** Where older messages continue (`before`), or null when there are none. */
  olderCursor: number | null;
  /** Spolu's locale code of the page (answers come in its language; task links stay in it). */
  locale: Locale;
  timeZone: string;
}

export function ChatConversation({ initial, olderCursor: initialCursor, locale, timeZone }: Props) {
  const t = useTranslations("Chat");
  const id = useId();
  const [messages, setMessages] = useState(initial);
  const [olderCursor, setOlderCursor] = useState(initialCursor);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState<Pending | null>(null);
  const [queued, setQueued] = useState<string[]>([]);
  // What `send` reads across awaits: whether a question is being answered, and the messages waiting for it.
  const answering = useRef(false);
  const queue = useRef<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [confirmingClear, setConfirmingClear] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const keepScroll = useRef(false);

  // New messages and streamed text keep the end of the conversation in view (older ones, loaded above, do not).
  useEffect(() => {
    if (keepScroll.current) {
      keepScroll.current = false;
      return;
    }
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, pending]);

  function failed(question: string, message: string): false {
    setPending(null);
    setDraft(question);
    setError(message);
    return false;
  }

  /** Sends a message now, or queues it while an answer is coming; queued messages follow one by one. */
  async function send(text: string) {
    const question = text.trim();
    setError(null);
    setStatus("");
    if (!question) return setFieldError(t("errorEmpty"));
    if (question.length > MESSAGE_MAX) return setFieldError(t("errorTooLong", { max: MESSAGE_MAX }));
    setFieldError(null);
    setDraft("");
    if (answering.current) {
      queue.current = [...queue.current, question];
      setQueued(queue.current);
      return setStatus(t("queuedStatus"));
    }
    answering.current = true;
    let next: string | undefined = question;
    while (next !== undefined) {
      if (!(await ask(next))) {
        // The failed question is back in the box: the queued ones follow it there, in order.
        const rest = queue.current;
        if (rest.length) setDraft((current) => [current, ...rest].join("\n"));
        queue.current = [];
        setQueued([]);
        break;
      }
      [next, ...queue.current] = queue.current;
      setQueued(queue.current);
    }
    answering.current = false;
  }

  /** Asks one question and streams its answer; false when it was not answered (the question is back in the box). */
  async function ask(question: string): Promise<boolean> {
    setStatus("");
    setPending({ question, text: "", answeredBy: null, fallback: false });
    // The answer as Server-Sent Events: openapi-fetch hands over the body unread (parseAs "stream").
    const response = await api
      .POST("/api/v1/chat", {
        body: { message: question, lang: locale },
        headers: { Accept: "text/event-stream" },
        parseAs: "stream",
      })
      .catch(() => null);
    if (!response) return failed(question, t("errorGeneric"));
    if (response.status === 401) {
      window.location.assign(signInPath(locale, `/${locale}/chat`));
      return false;
    }
    if (!response.ok || !response.body) {
      if (response.status === 400) {
        setPending(null);
        setDraft(question);
        setFieldError(t("errorTooLong", { max: MESSAGE_MAX }));
        return false;
      }
      if (response.status === 429) return failed(question, t("errorBudget"));
      if (response.status === 503) return failed(question, t("errorUnavailable"));
      return failed(question, t("errorGeneric"));
    }
    try {
      // With parseAs "stream" the body is the unread stream; the client's type describes the JSON form only.
      const stream = response.body as unknown as ReadableStream<Uint8Array>;
      for await (const { event, data } of readServerSentEvents(stream)) {
        if (event === "answeredBy") {
          const who = data as { answeredBy: AnsweredBy; fallbackReason: string | null };
          // A second one replaces an unusable answer with the built-in one: start the text again.
          setPending(
            (current) =>
              current && {
                ...current,
                answeredBy: who.answeredBy,
                fallback: who.fallbackReason !== null,
                text: current.answeredBy ? "" : current.text,
              },
          );
        } else if (event === "delta") {
          const { text: piece } = data as { text: string };
          setPending((current) => current && { ...current, text: current.text + piece });
        } else if (event === "done") {
          const { question: asked, answer } = data as ChatAnswerOutput;
          setMessages((current) => [...current, asked, answer]);
          setPending(null);
          return true;
        } else if (event === "error") {
          return failed(question, t("errorBroken"));
        }
      }
    } catch {
      // The connection dropped: below, as a broken answer.
    }
    return failed(question, t("errorBroken"));
  }

  async function loadOlder() {
    if (olderCursor === null) return;
    const answer = await api.GET("/api/v1/chat/messages", { params: { query: { limit: PAGE, before: olderCursor } } });
    if (!answer.ok) return setError(t("errorGeneric"));
    const older = [...answer.body.items].reverse();
    keepScroll.current = true;
    setMessages((current) => [...older, ...current]);
    setOlderCursor(answer.body.nextCursor);
  }

  async function clear() {
    const answer = await api.DELETE("/api/v1/chat/messages");
    setConfirmingClear(false);
    if (!answer.ok) return setError(t("errorGeneric"));
    setMessages([]);
    setOlderCursor(null);
    setStatus(t("cleared"));
    boxRef.current?.focus();
  }

  function decided(action: ChatActionOutput) {
    setMessages((current) =>
      current.map((message) => ({
        ...message,
        actions: message.actions.map((candidate) => (candidate.id === action.id ? action : candidate)),
      })),
    );
  }

  const suggestions = [t("suggestionToday"), t("suggestionNext"), t("suggestionOverdue"), t("suggestionAdd")];
  const describedBy = [`${id}-hint`, fieldError && `${id}-error`].filter(Boolean).join(" ");

  return (
    <div className="chat">
      <div ref={logRef} className="chat-log" role="log" aria-label={t("conversation")} tabIndex={0}>
        {olderCursor !== null && (
          <button type="button" className="button chat-older" onClick={loadOlder}>
            {t("older")}
          </button>
        )}
        {messages.length === 0 && !pending && <p className="chat-empty">{t("empty")}</p>}
        <ol className="chat-messages">
          {messages.map((message) => (
            <ChatMessage key={message.id} message={message} timeZone={timeZone}>
              {message.actions.map((action) => (
                <ChatActionCard key={action.id} action={action} locale={locale} timeZone={timeZone} onDecided={decided} />
              ))}
            </ChatMessage>
          ))}
          {pending && (
            <>
              <li className="chat-message chat-message-user">
                <p className="chat-author">{t("you")}</p>
                <p className="chat-text" dir="auto">
                  {pending.question}
                </p>
              </li>
              <li className="chat-message chat-message-assistant" aria-busy="true">
                <p className="chat-author">{t("assistant")}</p>
                <p className="chat-text" dir="auto">
                  {pending.text || <span className="chat-typing">{t("answering")}</span>}
                </p>
                <AnsweredByNote answeredBy={pending.answeredBy} fallback={pending.fallback} />
              </li>
            </>
          )}
          {queued.map((question, index) => (
            <li key={`${index}-${question}`} className="chat-message chat-message-user chat-message-queued">
              <p className="chat-author">
                {t("you")} · <span className="chat-queued">{t("queued")}</span>
              </p>
              <p className="chat-text" dir="auto">
                {question}
              </p>
            </li>
          ))}
        </ol>
      </div>

      {messages.length === 0 && !pending && (
        <ul className="chat-suggestions" aria-label={t("suggestions")}>
          {suggestions.map((suggestion) => (
            <li key={suggestion}>
              <button type="button" className="button" onClick={() => send(suggestion)}>
                {suggestion}
              </button>
            </li>
          ))}
        </ul>
      )}

      <p className="chat-error" role="alert">
        {error}
      </p>
      <p className="chat-status" role="status">
        {status}
      </p>

      <form
        className="chat-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send(draft);
        }}
      >
        <label htmlFor={`${id}-message`}>{t("messageLabel")}</label>
        <textarea
          ref={boxRef}
          id={`${id}-message`}
          name="message"
          rows={2}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send(draft);
            }
          }}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={describedBy}
          dir="auto"
        />
        <p id={`${id}-hint`} className="chat-hint">
          {t("messageHint")}
        </p>
        {fieldError && (
          <p id={`${id}-error`} className="chat-error">
            {fieldError}
          </p>
        )}
        <button type="submit" className="button primary">
          {t("send")}
        </button>
      </form>

      {messages.length > 0 && (
        <div className="chat-clear">
          {confirmingClear ? (
            <div role="group" aria-labelledby={`${id}-clear-question`}>
              <p id={`${id}-clear-question`}>{t("clearQuestion")}</p>
              <button type="button" className="button chat-danger" onClick={clear}>
                {t("clearYes")}
              </button>{" "}
              <button type="button" className="button" onClick={() => setConfirmingClear(false)} autoFocus>
                {t("clearNo")}
              </button>
            </div>
          ) : (
            <button type="button" className="button" onClick={() => setConfirmingClear(true)} disabled={pending !== null}>
              {t("clear")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function ChatMessage({
  message,
  timeZone,
  children,
}: {
  message: ChatMessageOutput;
  timeZone: string;
  children: React.ReactNode;
}) {
  const t = useTranslations("Chat");
  const format = useFormatter();
  const sent = new Date(message.createdAt);
  return (
    <li className={`chat-message chat-message-${message.role}`}>
      <p className="chat-author">
        {message.role === "user" ? t("you") : t("assistant")}{" "}
        <time dateTime={message.createdAt}>
          {format.dateTime(sent, { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit" })}
        </time>
      </p>
      <p className="chat-text" dir="auto">
        {message.content}
      </p>
      {message.role === "assistant" && (
        <AnsweredByNote answeredBy={message.answeredBy} fallback={message.fallbackReason !== null} />
      )}
      {children}
    </li>
  );
}
