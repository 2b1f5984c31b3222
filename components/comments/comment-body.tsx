import Markdown, { defaultUrlTransform } from "react-markdown";

/*
 * A comment's Markdown, rendered safely: react-markdown builds React elements (never HTML strings), raw HTML in the
 * text shows as the text it is (no rehype-raw), only the elements below are kept (others are replaced by their
 * content) and links go to http(s) or mailto only, opening without the page's context.
 */

const ALLOWED = ["p", "br", "strong", "em", "del", "code", "pre", "ul", "ol", "li", "blockquote", "a"];

function safeUrl(url: string): string {
  const kept = defaultUrlTransform(url);
  return /^(https?:|mailto:)/i.test(kept) ? kept : "";
}

export function CommentBody({ body }: { body: string }) {
  return (
    <div className="comment-body" dir="auto">
      <Markdown
        allowedElements={ALLOWED}
        unwrapDisallowed
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) =>
            href ? (
              <a href={href} rel="noopener noreferrer nofollow" target="_blank">
                {children}
              </a>
            ) : (
              <>{children}</>
            ),
        }}
      >
        {body}
      </Markdown>
    </div>
  );
}
