/**
 * Every kind of queued work and how many attempts it gets: what the administrators see (GET /admin/queue, the admin
 * page), whichever domain modules a process has loaded (the admin page's bundle loads none of them). Each kind's
 * domain defines its work with `defineQueue` (lib/queue/service.ts), which refuses a kind named here with another
 * number of attempts.
 */
export const QUEUE_CATALOG = [
  { kind: "webhook.delivery", maxAttempts: 8 },
  { kind: "connector.run", maxAttempts: 4 },
  { kind: "deploy.run", maxAttempts: 1 },
  { kind: "media.transcription", maxAttempts: 2 },
  { kind: "reminder.send", maxAttempts: 3 },
] as const;
