/*
 * Names people see and trust (a person's name, a device's, an attachment's filename) must show what they are. A
 * bidirectional formatting character can reorder what follows it: `invoice\u202Egpj.exe` is shown as
 * `invoiceexe.jpg`; a control character can hide or break a line. Such names are refused where people type them
 * (a 400 naming the field) and removed where another system supplies them (an external account's profile name).
 */

/** Bidirectional formatting characters: ALM, LRM, RLM, the embeddings and overrides (LRE..RLO, PDF), the isolates. */
// eslint-disable-next-line no-control-regex
const DISGUISING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Why a display name is refused, or null. */
export function displayTextProblem(text: string): string | null {
  DISGUISING.lastIndex = 0;
  return DISGUISING.test(text)
    ? "must not contain control or bidirectional formatting characters (they can disguise what the name shows)"
    : null;
}

/** The text without those characters (for names another system gave). */
export function withoutDisguise(text: string): string {
  return text.replace(DISGUISING, "");
}

/** For a zod string schema's `.superRefine`: the problem above as an issue on the field. */
export function refuseDisguise(text: string, context: { addIssue(issue: { code: "custom"; message: string }): void }): void {
  const problem = displayTextProblem(text);
  if (problem) context.addIssue({ code: "custom", message: problem });
}
