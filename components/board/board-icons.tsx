/** The board's icons (24×24, stroked in the current colour); decorative, hidden from screen readers. */

/** Six dots: the handle a card is dragged by. */
export function GripIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      {[5, 12, 19].flatMap((y) => [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.7" />))}
    </svg>
  );
}
