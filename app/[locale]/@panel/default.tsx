/**
 * The side panel slot (app/[locale]/layout.tsx) when nothing is open in it: after a full page load, and wherever
 * no page of the slot matches. Next.js 16 requires a default for every parallel slot.
 */
export default function NoPanel() {
  return null;
}
