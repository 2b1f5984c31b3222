/**
 * The pages bring their own `<html>`: app/[locale]/layout.tsx (with lang and dir), app/docs/layout.tsx
 * and app/not-found.tsx. This root only exists so that the unlocalized 404 page has a layout.
 */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return children;
}
