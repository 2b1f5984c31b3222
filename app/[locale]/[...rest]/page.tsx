import { notFound } from "next/navigation";

/** Unknown paths under a locale get the localized 404 page (app/[locale]/not-found.tsx). */
export default function CatchAll() {
  notFound();
}
