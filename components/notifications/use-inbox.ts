"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { useLiveEvents, type LiveState } from "@/components/realtime/use-live-events";
import type { NotificationListOutput, NotificationOutput } from "@/lib/notifications/schema";

/*
 * The signed-in user's notifications as the bell and the notifications page keep them: the unread count, the
 * newest ones (one page, more on request), kept up to date by the socket: `notification.created` adds one and
 * counts it, `notification.read` (from this page or any other of the user's) marks it, or all, read and brings the
 * count the server has. On every connection the count is read again, and after a lost connection that could not be
 * replayed the loaded list too.
 */

export interface Inbox {
  unread: number;
  /** The notifications loaded so far, newest first; null until the first page is read. */
  items: NotificationOutput[] | null;
  nextCursor: string | null;
  loadFailed: boolean;
  live: LiveState;
  /** Reads the first page (again). */
  load(): Promise<void>;
  /** Reads the page after the loaded ones. */
  loadMore(): Promise<void>;
  markRead(notification: NotificationOutput): Promise<boolean>;
  markAllRead(): Promise<boolean>;
}

export function useInbox(initial: { unread: number; page?: NotificationListOutput; pageSize: number }): Inbox {
  const [unread, setUnread] = useState(initial.unread);
  const [items, setItems] = useState<NotificationOutput[] | null>(initial.page?.items ?? null);
  const [nextCursor, setNextCursor] = useState<string | null>(initial.page?.nextCursor ?? null);
  const [loadFailed, setLoadFailed] = useState(false);
  const loaded = useRef(initial.page !== undefined);
  const pageSize = initial.pageSize;

  const load = useCallback(async () => {
    const answer = await api.GET("/api/v1/notifications", { params: { query: { limit: pageSize } } }).catch(() => null);
    if (!answer?.ok) return setLoadFailed(true);
    loaded.current = true;
    setLoadFailed(false);
    setItems(answer.body.items);
    setNextCursor(answer.body.nextCursor);
  }, [pageSize]);

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    const answer = await api
      .GET("/api/v1/notifications", { params: { query: { limit: pageSize, cursor: nextCursor } } })
      .catch(() => null);
    if (!answer?.ok) return setLoadFailed(true);
    const more = answer.body.items;
    setItems((current) => [...(current ?? []), ...more.filter((item) => !current?.some((known) => known.id === item.id))]);
    setNextCursor(answer.body.nextCursor);
  }, [nextCursor, pageSize]);

  const refreshCount = useCallback(async () => {
    const answer = await api.GET("/api/v1/notifications/unread-count").catch(() => null);
    if (answer?.ok) setUnread(answer.body.unread);
  }, []);

  const live = useLiveEvents({
    onEvent(event) {
      if (event.type === "notification.created") {
        const notification = event.data as unknown as NotificationOutput;
        setItems((current) => {
          if (current === null || current.some((item) => item.id === notification.id)) return current;
          return [notification, ...current];
        });
        // The count comes from the server: an event replayed twice must not count twice.
        void refreshCount();
      }
      if (event.type === "notification.read") {
        const { notificationId, unread: left } = event.data as { notificationId: string | null; unread: number };
        setUnread(left);
        const readAt = event.createdAt;
        setItems(
          (current) =>
            current?.map((item) =>
              !item.read && (notificationId === null || item.id === notificationId) ? { ...item, read: true, readAt } : item,
            ) ?? null,
        );
      }
    },
    onResync() {
      void refreshCount();
      if (loaded.current) void load();
    },
  });

  // Each time the socket (re)connects, the count is read again: one made between the page's rendering and the
  // connection would otherwise be missed (a first connection replays nothing).
  useEffect(() => {
    if (live === "live") void refreshCount();
  }, [live, refreshCount]);

  const markRead = useCallback(
    async (notification: NotificationOutput) => {
      const answer = await api
        .POST("/api/v1/notifications/{id}/read", { params: { path: { id: notification.id } } })
        .catch(() => null);
      if (!answer?.ok) return false;
      const read = answer.body;
      setItems((current) => current?.map((item) => (item.id === read.id ? read : item)) ?? null);
      // The count from the server, not one less: the socket's notification.read may have brought it already.
      void refreshCount();
      return true;
    },
    [refreshCount],
  );

  const markAllRead = useCallback(async () => {
    const answer = await api.POST("/api/v1/notifications/read-all").catch(() => null);
    if (!answer?.ok) return false;
    const now = new Date().toISOString();
    setItems((current) => current?.map((item) => (item.read ? item : { ...item, read: true, readAt: now })) ?? null);
    setUnread(0);
    return true;
  }, []);

  return { unread, items, nextCursor, loadFailed, live, load, loadMore, markRead, markAllRead };
}
