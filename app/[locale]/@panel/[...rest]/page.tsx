/**
 * The side panel slot on every page but a task opened from another page ((.)tasks/[id]): empty, so that going to
 * the list, the board or anywhere else closes an open panel (a client-side navigation would otherwise keep it).
 * Its parameter is named like the page catch-all beside the slot (../[...rest]), which Next.js requires.
 */
export default function NoPanel() {
  return null;
}
