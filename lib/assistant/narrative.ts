import { AppError } from "../api/app-error";
import { aiEndpointConfigured, BUILT_IN, complete, type AiMessage, type AiPurpose, type AnsweredBy } from "../ai/provider";
import { log } from "../log";

/** A few sentences about the user's day or week, and who wrote them. */
export interface Narrative {
  text: string;
  answeredBy: AnsweredBy;
  /** Why the built-in assistant wrote it although an AI endpoint is configured; null otherwise. */
  fallbackReason: string | null;
}

const NARRATIVE_MAX_TOKENS = 400;

/**
 * A narrative from the AI endpoint when one is configured, else from the built-in assistant. Nobody asked the AI
 * anything here (the briefing and the weekly report are made for the user): an endpoint that fails, times out,
 * has used up the user's budget or answers nothing never costs them the narrative. The built-in one stands in,
 * with the reason.
 */
export async function narrate(
  userId: string,
  purpose: AiPurpose,
  prompt: () => AiMessage[],
  builtIn: () => string,
): Promise<Narrative> {
  if (!aiEndpointConfigured()) return { text: builtIn(), answeredBy: BUILT_IN, fallbackReason: null };
  let fallbackReason: string;
  try {
    const answer = await complete({ userId, purpose, messages: prompt(), maxTokens: NARRATIVE_MAX_TOKENS });
    const text = answer.text.trim();
    if (text) return { text, answeredBy: answer.answeredBy, fallbackReason: null };
    fallbackReason = "The AI service gave an empty answer";
  } catch (error) {
    fallbackReason = error instanceof AppError ? error.message : "The AI service could not be used";
    if (!(error instanceof AppError)) log.error("AI narrative failed", { purpose, error: String(error) });
  }
  return { text: builtIn(), answeredBy: BUILT_IN, fallbackReason };
}
