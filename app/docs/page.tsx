import { ApiReference } from "@/components/docs/api-reference";
import { Logo } from "@/components/ui/logo";

export default function DocsPage() {
  return (
    <>
      <header className="docs-header">
        <a href="/" className="docs-brand">
          <Logo size={24} />
          <span>Spolu</span>
        </a>
        <span className="docs-subtitle">API documentation</span>
        <a className="docs-spec-link" href="/openapi.json">
          openapi.json
        </a>
      </header>
      <main>
        <ApiReference specUrl="/openapi.json" />
      </main>
    </>
  );
}
