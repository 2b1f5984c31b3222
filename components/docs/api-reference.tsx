"use client";

import { useEffect, useRef, useState } from "react";

type SwaggerUIOptions = {
  domNode: HTMLElement;
  url: string;
  persistAuthorization: boolean;
  deepLinking: boolean;
  docExpansion: "list" | "full" | "none";
  defaultModelsExpandDepth: number;
  displayRequestDuration: boolean;
  filter: boolean;
};

/**
 * The self-contained build that swagger-ui-react ships (Swagger UI with its own React and every
 * dependency bundled in). Not swagger-ui-react's component: that one imports the ApiDOM packages as
 * separate modules, and Turbopack (Next 16) drops their side-effect "refractor registration" modules,
 * so expanding any OpenAPI 3.1 operation spins forever with "OpenApi3_1Element.refract is not a
 * function" (swagger-api/swagger-ui#10599, vercel/next.js#86507). The file is outside the package's
 * export map, hence the relative path.
 */
const loadSwaggerUI = () =>
  // @ts-expect-error -- the bundled build has no type declarations
  import("../../node_modules/swagger-ui-react/swagger-ui-es-bundle.js").then(
    (module: { default: (options: SwaggerUIOptions) => unknown }) => module.default,
  );

/**
 * The interactive API reference, rendered in the browser only. `persistAuthorization` keeps the token
 * given under "Authorize" (in localStorage) across reloads, so "Try it out" calls the API as that user.
 *
 * The tags open collapsed (`docExpansion: "none"`): the reader first sees the API's areas as a table of
 * contents, narrows them with the filter box, and opens one (or follows a deep link such as
 * `/docs#/Account/getCurrentUser`, which opens that operation). With every tag open ("list") the
 * document lists 150 operations under 24 tags; from 150 rows on, Swagger UI renders the list virtualized
 * against the window, so only the rows in the viewport exist and the first screen shows little more than
 * the Health tag below the long introduction. Collapsed, the first paint draws 24 headings, and each
 * opened tag draws only its own operations.
 */
export function ApiReference({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const started = useRef(false);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    if (started.current) return; // once per mount, also under React's double-invoked effects
    started.current = true;
    loadSwaggerUI()
      .then((SwaggerUI) => {
        const domNode = container.current;
        if (!domNode?.isConnected) return;
        SwaggerUI({
          domNode,
          url: specUrl,
          persistAuthorization: true,
          deepLinking: true,
          docExpansion: "none",
          defaultModelsExpandDepth: 0,
          displayRequestDuration: true,
          filter: true,
        });
        setState("ready");
      })
      .catch(() => setState("failed"));
  }, [specUrl]);

  return (
    <>
      {state === "loading" && <p className="api-reference-status">Loading the API description…</p>}
      {state === "failed" && (
        <p className="api-reference-status" role="alert">
          The API documentation could not be loaded. The raw description is at <a href={specUrl}>{specUrl}</a>.
        </p>
      )}
      <div ref={container} />
    </>
  );
}
