/** Turns domain events into in-app notifications (a request to decide, an invitation accepted...). (Being built.) */
export function registerNotificationHandlers(): () => void {
  return () => {};
}
