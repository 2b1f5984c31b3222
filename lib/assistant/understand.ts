import { addDays, isoWeekday } from "../local-dates";

/*
 * What a chat message asks for, as the built-in assistant reads it: keywords and date phrases in English and
 * Czech (with or without diacritics); in Russian, Ukrainian and Hebrew the questions and adding a task with
 * today, tomorrow or the day after (moving a task and weekdays only in English and Czech). Pure: the caller gives
 * today's local date, so "tomorrow" and "Friday" are the user's, in their time zone. Anything it does not
 * recognise is an `overview` request.
 *
 * `\b` knows only ASCII letters: words in Cyrillic are bounded with the lookarounds of START and END, and Hebrew
 * words, which take their prepositions as prefixes (למחר, באיחור), are matched as they stand.
 */

const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;

export type Intent =
  | { kind: "create_task"; title: string | null; date: string | null }
  | { kind: "reschedule_task"; query: string | null; date: string | null }
  | { kind: "overdue" }
  | { kind: "week" }
  | { kind: "due_on"; date: string }
  | { kind: "count" }
  | { kind: "next" }
  | { kind: "goals" }
  | { kind: "overview" };

/**
 * Lower case without diacritics, keeping every character's place (a character that would not stay one UTF-16
 * unit stays as it is): positions found in it are positions in the message.
 */
export function fold(text: string): string {
  let folded = "";
  for (const character of text) {
    const plain = character.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
    folded += plain.length === character.length ? plain : character;
  }
  return folded;
}

interface Found {
  date: string;
  start: number;
  end: number;
}

const PREPOSITION = String.raw`(?:${START}(?:on|by|until|till|to|for|due|next|this|na|v|ve|do|k|ke|pristi|tento|tuto|на|до|к|в)\s+)*`;
const WEEKDAYS: readonly [RegExp, number][] = [
  [/monday|pondeli|pondelka/, 1],
  [/tuesday|utery|uterka/, 2],
  [/wednesday|streda|stredu|stredy/, 3],
  [/thursday|ctvrtek|ctvrtka|ctvrtku/, 4],
  [/friday|patek|patku/, 5],
  [/saturday|sobota|sobotu|soboty/, 6],
  [/sunday|nedele|nedeli/, 7],
];

/** The next date after `today` that falls on an ISO weekday (1 Monday … 7 Sunday); a week on when today is one. */
function nextWeekday(today: string, weekday: number): string {
  const ahead = (weekday - isoWeekday(today) + 7) % 7 || 7;
  return addDays(today, ahead);
}

function validDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

interface DatePhrase {
  pattern: RegExp;
  resolve: (match: RegExpExecArray, today: string) => string | null;
  /** Counts only with this before it ("week" is a date only as "next week"). */
  requires?: RegExp;
}

/** Date phrases; where one contains another, the longer comes first ("day after tomorrow" before "tomorrow"). */
const DATE_PHRASES: readonly DatePhrase[] = [
  { pattern: /(\d{4})-(\d{2})-(\d{2})\b/, resolve: (m, _today) => validDate(Number(m[1]), Number(m[2]), Number(m[3])) },
  {
    // Czech numeric dates: 5. 3., 5.3.2027
    pattern: /\b(\d{1,2})\.\s?(\d{1,2})\.(?:\s?(\d{4}))?/,
    resolve: (m, today) => {
      const year = m[3] ? Number(m[3]) : Number(today.slice(0, 4));
      const date = validDate(year, Number(m[2]), Number(m[1]));
      if (!date || m[3] || date >= today) return date;
      return validDate(year + 1, Number(m[2]), Number(m[1]));
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:the )?day after tomorrow\b|\bpozitri\b|${START}(?:послезавтра|післязавтра)${END}|[לב]?מחרתיים`,
      "u",
    ),
    resolve: (_m, today) => addDays(today, 2),
  },
  {
    pattern: new RegExp(String.raw`\b(?:tomorrow|zitra|zitrek|zitrku)\b|${START}завтра${END}|[לב]?מחר(?!תיים)`, "u"),
    resolve: (_m, today) => addDays(today, 1),
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:today|tonight|dnes|dneska|dnesek|dnesku)\b|${START}(?:сегодня|сьогодні)${END}|[לב]?היום`,
      "u",
    ),
    resolve: (_m, today) => today,
  },
  {
    pattern: /\bin (\d{1,3}) days?\b|\bza (\d{1,3}) (?:den|dny|dni|dnu)\b/,
    resolve: (m, today) => addDays(today, Number(m[1] ?? m[2])),
  },
  { pattern: /\b(?:week|tyden)\b/, resolve: (_m, today) => nextWeekday(today, 1), requires: /\b(?:next|pristi)\s/ },
  ...WEEKDAYS.map(([names, weekday]) => ({
    pattern: new RegExp(String.raw`\b(?:${names.source})\b`),
    resolve: (_m: RegExpExecArray, today: string) => nextWeekday(today, weekday),
  })),
];

/** The first date phrase in `folded` (with the prepositions before it: "to Friday", "na pátek"), or null. */
export function findDate(folded: string, today: string): Found | null {
  let best: Found | null = null;
  for (const { pattern, resolve, requires } of DATE_PHRASES) {
    const match = new RegExp(`${PREPOSITION}(?:${pattern.source})`, "u").exec(folded);
    if (!match) continue;
    const phrase = match[0];
    if (requires && !requires.test(phrase)) continue;
    // The phrase's own groups, without the prepositions before it.
    const date = resolve(pattern.exec(phrase) ?? match, today);
    if (!date) continue;
    if (!best || match.index < best.start) best = { date, start: match.index, end: match.index + phrase.length };
  }
  return best;
}

// Folded: "добавь/создай задачу", "додай/створи завдання" (й folds to и), "הוסף משימה".
const CREATE = new RegExp(
  String.raw`\b(?:(?:add|create|make|new)\s+(?:(?:a|an|new|the)\s+)*(?:task|todo|to-do|reminder)|remind me to|(?:pridej|pridejte|pridat|vytvor|vytvorte|vytvorit|zaloz|zalozte|zalozit|novy)\s+(?:mi\s+)?(?:(?:novy|dalsi)\s+)?ukol|pripomen mi)\b` +
    String.raw`|${START}(?:(?:добавь|добавьте|создаи|создаите)\s+(?:новую\s+)?задачу|(?:додаи|додаите|створи|створіть)\s+(?:нове\s+)?завдання)${END}` +
    String.raw`|(?:הוסף|הוסיפי|תוסיף|תוסיפי|צור|צרי)\s+משימה(?:\s+חדשה)?`,
  "u",
);
const RESCHEDULE =
  /\b(?:reschedule|postpone|move|push back|push|shift|delay|presun|presunte|presunout|presunes|odloz|odlozte|odlozit|posun|posunte|posunout|preloz|prelozte|prelozit)\b/;

/** English and Czech words (bounded by \b), then Russian, Ukrainian and Hebrew stems. */
const KEYWORDS: readonly [Exclude<Intent["kind"], "create_task" | "reschedule_task" | "due_on">, RegExp][] = [
  [
    "overdue",
    /\b(?:overdue|late|behind|missed|past due|po terminu|zpozd\w*|prosl\w*|propadl\w*|nestihl\w*)\b|просроч|простроч|איחור/u,
  ],
  // "next week" is a date (see findDate), not this week.
  ["week", /(?<!\b(?:next|pristi) )\b(?:week|tyden|tydnu|tydne)\b|(?<!(?:следующ|наступн)\p{L}* )(?:недел|тижн|тиждень)|שבוע/u],
  ["count", /\b(?:how many|count|number of|kolik|pocet)\b|сколько|скільки|כמה/u],
  [
    "next",
    /\b(?:next|what should i|what to do|priorit\w*|urgent|focus|start with|most important|co dal|co ted|co mam (?:delat|udelat)|dalsi|nejdulezitejsi|nalehav\w*|cim zacit|zacit)\b|дальше|следующ|сначала|приоритет|далі|наступн|спочатку|пріоритет|הבא|קודם|עכשיו/u,
  ],
  [
    "goals",
    /\b(?:goal|goals|progress|cil|cile|cilu|cili|cilem|cilum|cilech|pokrok\w*)\b|цел[ьиеяю]|прогресс?|ціл[ьіеюя]|יעד|מטר/u,
  ],
];

/** Words before a new task's title ("add task called …", "remind me to …"). */
const TITLE_FILLER = /^(?:called|named|titled|s nazvem|jmenem|the task|task|ukol|to|под названием|с названием|з назвою|בשם)\s+/u;
/** Words before the name of a task to move ("move my task …", "přesuň můj úkol …"). */
const TASK_FILLER = /^(?:the|my|a|an|task|ukol|muj|moje|ten|tu)\s+/;

/** Quotes, filler words and punctuation around a title or a task named in a request. */
function tidy(text: string, filler: RegExp): string | null {
  let cleaned = text.replace(/^[\s:,\-–—]+/, "");
  for (let found = filler.exec(fold(cleaned)); found; found = filler.exec(fold(cleaned)))
    cleaned = cleaned.slice(found[0].length);
  cleaned = cleaned
    .replace(/[\s.,!?;:\-–—]+$/, "")
    .replace(/^["'“”„‘’«»]+|["'“”„‘’«»]+$/g, "")
    .trim();
  return cleaned.length ? cleaned : null;
}

/** `text` with the folded span [start, end) cut out. */
function without(text: string, found: Found | null): string {
  return found ? `${text.slice(0, found.start)} ${text.slice(found.end)}` : text;
}

export function understand(message: string, today: string): Intent {
  const folded = fold(message);

  const create = CREATE.exec(folded);
  if (create) {
    const from = create.index + create[0].length;
    const date = findDate(folded.slice(from), today);
    // The title keeps the message's own letters: the date phrase is cut out at the positions found in the folded text.
    const title = tidy(without(message.slice(from), date).replace(/\s+/g, " "), TITLE_FILLER);
    return { kind: "create_task", title, date: date?.date ?? null };
  }

  const reschedule = RESCHEDULE.exec(folded);
  if (reschedule) {
    const from = reschedule.index + reschedule[0].length;
    const date = findDate(folded.slice(from), today);
    const named = message.slice(from, date ? from + date.start : undefined);
    return { kind: "reschedule_task", query: tidy(named.replace(/\s+/g, " "), TASK_FILLER), date: date?.date ?? null };
  }

  for (const [kind, pattern] of KEYWORDS.slice(0, 2)) if (pattern.test(folded)) return { kind } as Intent;
  const date = findDate(folded, today);
  if (date) return { kind: "due_on", date: date.date };
  for (const [kind, pattern] of KEYWORDS.slice(2)) if (pattern.test(folded)) return { kind } as Intent;
  return { kind: "overview" };
}
