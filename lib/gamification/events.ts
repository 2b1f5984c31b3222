import { onEvent } from "../events/publish";
import { awardCompletion } from "./service";

/**
 * Awards points, levels and badges for `task.completed` (lib/gamification/service.ts). Registered with the
 * gamification module: while it is switched off the handler does not run, and those completions never earn points.
 */
export function registerGamificationHandlers(): () => void {
  return onEvent(
    "gamification",
    async (event) => {
      if (event.type === "task.completed") await awardCompletion(event);
    },
    { module: "gamification" },
  );
}
