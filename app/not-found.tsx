import "./globals.css";

/** 404 for paths outside any locale (the localized one is app/[locale]/not-found.tsx). */
export default function NotFound() {
  return (
    <html lang="en">
      <body>
        <main className="not-found">
          <h1>Page not found</h1>
          <p>The page you are looking for does not exist or has moved.</p>
          <a className="button" href="/">
            Back to the home page
          </a>
        </main>
      </body>
    </html>
  );
}
