/**
 * The side panel slot on the home page: empty. During a client-side navigation a slot keeps what it showed
 * when no page of it matches, so the pages that close the panel must match: this one (`/{locale}`) and the
 * catch-all beside it (every other path).
 */
export default function NoPanel() {
  return null;
}
