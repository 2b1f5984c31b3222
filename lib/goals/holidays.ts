import Holidays from "date-holidays";
import { languageTag, type Locale } from "../i18n/locales";

/*
 * Public holidays for the built-in study planner, from date-holidays (its data ships with the package: nothing is
 * fetched). Only holidays of type "public" count (not bank, school, optional or observance days); their names are
 * in the user's language where the data has it (date-holidays takes BCP 47 language tags: Ukrainian is `uk`). The
 * names are the package's data in its many languages, not Spolu's messages, so they stay out of messages/*.json.
 */

export interface PublicHoliday {
  /** The local date, YYYY-MM-DD. */
  date: string;
  name: string;
}

let countries: Set<string> | null = null;
let zoneCountries: Map<string, string> | null = null;

/** Whether date-holidays knows the country (ISO 3166-1 alpha-2, upper case). */
export function isHolidayCountry(country: string): boolean {
  countries ??= new Set(Object.keys(new Holidays().getCountries()));
  return countries.has(country);
}

/**
 * The country an IANA time zone belongs to, where date-holidays lists the zone for exactly one country (a zone
 * several countries share, such as Europe/Zurich for CH and LI, names none of them); null otherwise (UTC, Etc/*, an
 * unknown zone). A zone's other names count too: browsers say Europe/Kyiv where the data says Europe/Kiev.
 */
export function countryOfTimeZone(timeZone: string): string | null {
  if (!zoneCountries) {
    const seen = new Map<string, string | null>();
    const holidays = new Holidays();
    for (const country of Object.keys(holidays.getCountries())) {
      holidays.init(country);
      for (const zone of holidays.getTimezones()) seen.set(zone, seen.has(zone) ? null : country);
    }
    zoneCountries = new Map([...seen].filter((entry): entry is [string, string] => entry[1] !== null));
  }
  return zoneCountries.get(timeZone) ?? zoneCountries.get(icuZoneName(timeZone)) ?? null;
}

/** The name ICU gives a zone (its older canonical name: Europe/Kyiv → Europe/Kiev); the zone itself if unknown. */
function icuZoneName(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return timeZone;
  }
}

/** The public holidays of a country from `startDate` to `endDate` (inclusive), by date, one per date. */
export function publicHolidays(country: string, startDate: string, endDate: string, locale: Locale): PublicHoliday[] {
  const holidays = new Holidays(country);
  const byDate = new Map<string, string>();
  for (let year = Number(startDate.slice(0, 4)); year <= Number(endDate.slice(0, 4)); year++) {
    for (const holiday of holidays.getHolidays(year, languageTag(locale))) {
      const date = holiday.date.slice(0, 10);
      if (holiday.type !== "public" || date < startDate || date > endDate || byDate.has(date)) continue;
      byDate.set(date, holiday.name);
    }
  }
  return [...byDate].sort(([a], [b]) => a.localeCompare(b)).map(([date, name]) => ({ date, name }));
}
