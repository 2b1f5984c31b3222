/** Line icons (24×24, stroked in the current colour) for the kinds of passkey; decorative, hidden from screen readers. */

function Icon({ size = 24, children }: { size?: number; children: React.ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export function FingerprintIcon({ size }: { size?: number }) {
  return (
    <Icon size={size}>
      <path d="M6.5 18.5A10 10 0 0 1 5 13a7 7 0 0 1 14 0v1" />
      <path d="M9 20a13 13 0 0 1-1-7 4 4 0 0 1 8 0 17 17 0 0 1-.6 4.6" />
      <path d="M12 13c0 3-.5 5.5-1.8 8" />
      <path d="M8.5 4.3A9 9 0 0 1 19.8 8" />
    </Icon>
  );
}

function FaceIcon() {
  return (
    <Icon>
      <path d="M4 8V6a2 2 0 0 1 2-2h2M16 4h2a2 2 0 0 1 2 2v2M20 16v2a2 2 0 0 1-2 2h-2M8 20H6a2 2 0 0 1-2-2v-2" />
      <path d="M9 9.5v1M15 9.5v1M12 9.5v3.5h-1M9.5 15.5a3.5 3.5 0 0 0 5 0" />
    </Icon>
  );
}

function WindowsIcon() {
  return (
    <Icon>
      <rect x="4" y="4" width="16" height="16" rx="2" />
      <path d="M12 4v16M4 12h16" />
    </Icon>
  );
}

function KeyIcon() {
  return (
    <Icon>
      <circle cx="8" cy="15" r="4" />
      <path d="m10.8 12.2 8.2-8.2M16 7l3 3M14 9l2 2" />
    </Icon>
  );
}

/** The icon for a device's `label` code from the API. */
export function DeviceIcon({ label }: { label: string }) {
  if (label === "face") return <FaceIcon />;
  if (label === "touch" || label === "android_fingerprint") return <FingerprintIcon />;
  if (label === "windows_hello") return <WindowsIcon />;
  return <KeyIcon />;
}
