/** Spolu's mark: two overlapping circles, two people doing something together. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="12" cy="16" r="9" fill="var(--accent)" opacity="0.85" />
      <circle cx="20" cy="16" r="9" fill="var(--accent-2)" opacity="0.85" />
    </svg>
  );
}
