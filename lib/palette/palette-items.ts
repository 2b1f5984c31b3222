/*
 * What the command palette (components/palette/command-palette.tsx) offers and how typing narrows it: each item is a section to open or an action, found
 * by every word typed appearing somewhere in its name, whatever the case and accents ("ukol" finds "Úkoly").
 */

export interface PaletteItem {
  id: string;
  label: string;
}

/** Lower case without accents or other marks, so that people can type without them. */
function plain(text: string, locale: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase(locale);
}

/** The items whose name holds every word of `query`, in their order; all of them for an empty query. */
export function filterItems<Item extends PaletteItem>(items: readonly Item[], query: string, locale: string): Item[] {
  const words = plain(query, locale).split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const label = plain(item.label, locale);
    return words.every((word) => label.includes(word));
  });
}
