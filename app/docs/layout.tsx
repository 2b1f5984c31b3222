import type { Metadata } from "next";
import "swagger-ui-react/swagger-ui.css";
import "./docs.css";

export const metadata: Metadata = {
  title: "Spolu API",
  description: "Interactive documentation of the Spolu JSON API: authorize with a token and try every endpoint.",
};

/** /docs lives outside the locale prefix: Swagger UI speaks English only. */
export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
