/**
 * The words quick add understands, per interface language. Written as people type them: the grammar folds case
 * and diacritics (text.ts), so "pátek" also matches "patek" and "Pátek"; case forms people mix up ("v pátku",
 * "do patka") are listed beside the correct ones. Hebrew one-letter prefixes (ב־, ל־, מ־) are `attached`
 * prepositions, written onto the next word with or without a maqaf.
 */
import type { Locale } from "../i18n/locales";

export interface Units<T> {
  day: T;
  week: T;
  month: T;
  year: T;
}

export interface Language {
  today: string[];
  tomorrow: string[];
  dayAfterTomorrow: string[];
  /** Index 0 is Sunday, as Date.getUTCDay() counts. */
  weekdays: string[][];
  /** Before a weekday: the one in the following week ("next Friday"). */
  next: string[];
  /** After a weekday (Hebrew "ביום שישי הבא"). */
  nextAfter: string[];
  /** Before a weekday, meaning nothing more than the weekday itself ("this Friday"). */
  thisWeek: string[];
  /** Index 0 is January: every form (cases, abbreviations). */
  months: string[][];
  /** The first day of the week people here count weeks from (0 Sunday, 1 Monday): "next Friday" is in the next such week. */
  weekStart: 0 | 1;
  /** Words before a date or weekday that add nothing ("on", "v", "ve"). */
  on: string[];
  /** Words before a time ("at", "v", "o", "в"). */
  at: string[];
  /** Words before a date meaning "by then": a due date. */
  due: string[];
  /** Words before a date meaning "from then": a start date. */
  start: string[];
  /** Prefixes written onto the next word (Hebrew): as `on`/`at`, and as `start`. */
  attached: { on: string[]; start: string[]; due: string[] };
  /** "in" of "in 3 days". */
  in: string[];
  units: Units<string[]> & { hour: string[]; minute: string[] };
  /** One word for two units (Hebrew יומיים, two days). */
  duals: Units<string[]>;
  /** Number words, folded; digits are always understood. */
  numbers: Record<string, number>;
  /** After a time: before noon, after noon ("ráno", "вечера", "pm"). */
  am: string[];
  pm: string[];
  /** With a date and no time: the part of the day, at 09:00, 12:00, 15:00, 19:00 and 21:00. */
  dayParts: { morning: string[]; noon: string[]; afternoon: string[]; evening: string[]; night: string[] };
  /** After an hour: "h", "hodin", "часов". */
  hourWords: string[];
  every: string[];
  /** "other" of "every other week". */
  everyOther: string[];
  /** One word for a whole rule ("daily", "щомісяця"). */
  adverbs: Units<string[]> & { fortnightly: string[] };
  /** Phrases for weekdays only or weekends: a rule the task model cannot store. */
  workdays: string[];
  /** "and" between two weekdays ("every Monday and Thursday": a rule the task model cannot store). */
  and: string[];
  /** Weekdays as said after "and" (Hebrew "כל יום שני וחמישי"), besides `weekdays`. */
  andWeekdays: string[];
  /** Numeric dates: day first (5.1. is 5 January) unless the English user is in the Americas. */
  monthFirst: boolean;
}

const en: Language = {
  today: ["today", "tod", "tdy", "todya"],
  tomorrow: ["tomorrow", "tmrw", "tmr", "tomorow", "tommorow", "tommorrow", "tomorro"],
  dayAfterTomorrow: ["the day after tomorrow", "day after tomorrow", "overmorrow"],
  weekdays: [
    ["sunday", "sundays"],
    ["monday", "mon", "mondays"],
    ["tuesday", "tue", "tues", "tuesdays"],
    ["wednesday", "wed", "weds", "wednesdays", "wensday", "wednsday"],
    ["thursday", "thu", "thur", "thurs", "thursdays", "thrusday"],
    ["friday", "fri", "fridays", "firday"],
    ["saturday", "saturdays"],
  ],
  next: ["next"],
  nextAfter: [],
  thisWeek: ["this", "this coming", "coming"],
  months: [
    ["january", "jan"],
    ["february", "feb"],
    ["march", "mar"],
    ["april", "apr"],
    ["may"],
    ["june", "jun"],
    ["july", "jul"],
    ["august", "aug"],
    ["september", "sep", "sept"],
    ["october", "oct"],
    ["november", "nov"],
    ["december", "dec"],
  ],
  weekStart: 0,
  on: ["on", "on the"],
  at: ["at", "@", "around"],
  due: ["by", "due", "due on", "due by", "until", "before"],
  start: ["from", "starting", "starting on", "starting from", "start", "beginning"],
  attached: { on: [], start: [], due: [] },
  in: ["in", "within"],
  units: {
    day: ["day", "days", "d"],
    week: ["week", "weeks", "wk", "wks", "w"],
    month: ["month", "months", "mo"],
    year: ["year", "years", "yr", "yrs"],
    hour: ["hour", "hours", "hr", "hrs", "h"],
    minute: ["minute", "minutes", "min", "mins"],
  },
  duals: { day: [], week: ["fortnight"], month: [], year: [] },
  numbers: { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, couple: 2 },
  am: ["am", "a.m.", "in the morning"],
  pm: ["pm", "p.m.", "in the evening", "at night", "in the afternoon"],
  dayParts: {
    morning: ["morning", "in the morning"],
    noon: ["noon", "at noon", "midday", "lunchtime"],
    afternoon: ["afternoon", "in the afternoon"],
    evening: ["evening", "in the evening", "tonight", "eve"],
    night: ["night", "at night"],
  },
  hourWords: ["h", "o'clock", "oclock"],
  every: ["every", "each"],
  everyOther: ["other", "second"],
  adverbs: {
    day: ["daily", "everyday"],
    week: ["weekly"],
    month: ["monthly"],
    year: ["yearly", "annually", "every year"],
    fortnightly: ["fortnightly", "biweekly", "bi-weekly"],
  },
  workdays: [
    "every weekday",
    "every workday",
    "every working day",
    "weekdays",
    "every business day",
    "every weekend",
    "weekends",
  ],
  and: ["and", "&", ","],
  andWeekdays: [],
  monthFirst: false,
};

const cs: Language = {
  today: ["dnes", "dneska", "dnešek", "dneška", "dnesko"],
  tomorrow: ["zítra", "zejtra", "zítřka", "zítřek", "zitr"],
  dayAfterTomorrow: ["pozítří", "pozejtří", "pozitri"],
  weekdays: [
    ["neděle", "neděli", "nedělí", "ned"],
    ["pondělí", "pondělka", "pondělku", "pondělkem", "pondeli", "pondělek", "pond"],
    ["úterý", "úterka", "úterku", "úterkem", "út"],
    ["středa", "středu", "středy", "středě", "stř"],
    ["čtvrtek", "čtvrtka", "čtvrtku", "čtvrtkem", "čt"],
    ["pátek", "pátku", "pátka", "pátkem", "pá"],
    ["sobota", "sobotu", "soboty", "sobotě", "sob"],
  ],
  next: ["příští", "příštího", "příštím", "další", "přístí"],
  nextAfter: [],
  thisWeek: ["tento", "tuto", "toto", "tenhle", "tuhle", "tohle", "tenhleten", "nejbližší"],
  months: [
    ["leden", "ledna", "lednu", "led"],
    ["únor", "února", "únoru", "úno"],
    ["březen", "března", "březnu", "bře"],
    ["duben", "dubna", "dubnu", "dub"],
    ["květen", "května", "květnu", "kvě"],
    ["červen", "června", "červnu", "čer"],
    ["červenec", "července", "červenci", "čvc"],
    ["srpen", "srpna", "srpnu", "srp"],
    ["září", "zář"],
    ["říjen", "října", "říjnu", "říj"],
    ["listopad", "listopadu", "lis"],
    ["prosinec", "prosince", "prosinci", "pro"],
  ],
  weekStart: 1,
  on: ["v", "ve", "na", "dne", "ke"],
  at: ["v", "ve", "o", "na", "kolem"],
  due: ["do", "nejpozději do", "nejpozději", "termín", "k"],
  start: ["od", "počínaje", "začít", "začátek"],
  attached: { on: [], start: [], due: [] },
  in: ["za", "během"],
  units: {
    day: ["den", "dny", "dní", "dnů", "dne", "dni"],
    week: ["týden", "týdny", "týdnů", "týdne", "tyden"],
    month: ["měsíc", "měsíce", "měsíců"],
    year: ["rok", "roky", "let", "roků"],
    hour: ["hodinu", "hodiny", "hodin", "hod", "h"],
    minute: ["minutu", "minuty", "minut", "min"],
  },
  duals: { day: [], week: ["čtrnáct dní"], month: [], year: [] },
  numbers: {
    jeden: 1,
    jednu: 1,
    jedno: 1,
    dva: 2,
    dvě: 2,
    tři: 3,
    čtyři: 4,
    pět: 5,
    šest: 6,
    sedm: 7,
    osm: 8,
    devět: 9,
    deset: 10,
    čtrnáct: 14,
    pár: 2,
  },
  am: ["ráno", "dopoledne", "dop.", "v noci"],
  pm: ["odpoledne", "odp.", "večer", "navečer"],
  dayParts: {
    morning: ["ráno", "dopoledne", "zrána"],
    noon: ["v poledne", "poledne", "na oběd", "v obed"],
    afternoon: ["odpoledne", "po obědě"],
    evening: ["večer", "navečer", "večír"],
    night: ["v noci", "noc"],
  },
  hourWords: ["h", "hod", "hod.", "hodin", "hodiny", "hodina"],
  every: ["každý", "každá", "každé", "každou", "každých", "každého", "každym", "každej"],
  everyOther: ["druhý", "druhou", "druhé", "druhej"],
  adverbs: {
    day: ["denně", "každodenně", "dennodenně"],
    week: ["týdně", "každotýdně"],
    month: ["měsíčně", "každoměsíčně"],
    year: ["ročně", "každoročně"],
    fortnightly: ["jednou za 14 dní", "jednou za čtrnáct dní", "jednou za dva týdny", "ob týden"],
  },
  workdays: ["každý pracovní den", "v pracovní dny", "ve všední dny", "každý všední den", "o víkendech", "každý víkend"],
  and: ["a", ",", "i"],
  andWeekdays: [],
  monthFirst: false,
};

const ru: Language = {
  today: ["сегодня", "седня", "сёдня"],
  tomorrow: ["завтра", "завтро"],
  dayAfterTomorrow: ["послезавтра", "после завтра"],
  weekdays: [
    ["воскресенье", "воскресенья", "воскресенью", "воскресение", "вс", "вскр"],
    ["понедельник", "понедельника", "понедельнику", "пн", "пон"],
    ["вторник", "вторника", "вторнику", "вт"],
    ["среда", "среду", "среды", "среде", "ср"],
    ["четверг", "четверга", "четвергу", "чт", "чтв"],
    ["пятница", "пятницу", "пятницы", "пятнице", "пт", "пятн"],
    ["суббота", "субботу", "субботы", "субботе", "сб", "суб"],
  ],
  next: ["следующий", "следующую", "следующее", "следующего", "следующей", "след", "след."],
  nextAfter: [],
  thisWeek: ["этот", "эту", "это", "ближайший", "ближайшую"],
  months: [
    ["январь", "января", "январе", "янв"],
    ["февраль", "февраля", "феврале", "фев"],
    ["март", "марта", "марте", "мар"],
    ["апрель", "апреля", "апреле", "апр"],
    ["май", "мая", "мае"],
    ["июнь", "июня", "июне", "июн"],
    ["июль", "июля", "июле", "июл"],
    ["август", "августа", "августе", "авг"],
    ["сентябрь", "сентября", "сентябре", "сен", "сент"],
    ["октябрь", "октября", "октябре", "окт"],
    ["ноябрь", "ноября", "ноябре", "ноя"],
    ["декабрь", "декабря", "декабре", "дек"],
  ],
  weekStart: 1,
  on: ["в", "во", "на"],
  at: ["в", "во", "к", "около"],
  due: ["до", "к", "ко", "не позднее"],
  start: ["с", "со", "начиная с", "начиная со", "от"],
  attached: { on: [], start: [], due: [] },
  in: ["через", "за"],
  units: {
    day: ["день", "дня", "дней", "дн"],
    week: ["неделю", "недели", "недель", "неделя", "нед"],
    month: ["месяц", "месяца", "месяцев", "мес"],
    year: ["год", "года", "лет"],
    hour: ["час", "часа", "часов", "ч"],
    minute: ["минуту", "минуты", "минут", "мин"],
  },
  duals: { day: [], week: [], month: [], year: [] },
  numbers: {
    один: 1,
    одну: 1,
    два: 2,
    две: 2,
    три: 3,
    четыре: 4,
    пять: 5,
    шесть: 6,
    семь: 7,
    восемь: 8,
    девять: 9,
    десять: 10,
    пару: 2,
  },
  am: ["утра", "ночи"],
  pm: ["дня", "вечера"],
  dayParts: {
    morning: ["утром", "с утра"],
    noon: ["в полдень", "полдень", "в обед"],
    afternoon: ["днём", "днем", "после обеда"],
    evening: ["вечером", "вечерком"],
    night: ["ночью"],
  },
  hourWords: ["ч", "ч.", "час", "часа", "часов"],
  every: ["каждый", "каждую", "каждое", "каждые", "каждого", "каждой", "кажд"],
  everyOther: ["второй", "вторую", "второе"],
  adverbs: {
    day: ["ежедневно", "каждодневно"],
    week: ["еженедельно"],
    month: ["ежемесячно"],
    year: ["ежегодно"],
    fortnightly: ["раз в две недели", "раз в 2 недели"],
  },
  workdays: ["по будням", "в будни", "каждый будний день", "по рабочим дням", "по выходным", "каждые выходные"],
  and: ["и", ","],
  andWeekdays: [],
  monthFirst: false,
};

const ua: Language = {
  today: ["сьогодні", "сьодні", "сьогодня"],
  tomorrow: ["завтра"],
  dayAfterTomorrow: ["післязавтра", "після завтра"],
  weekdays: [
    ["неділя", "неділю", "неділі", "нд"],
    ["понеділок", "понеділка", "понеділку", "пн"],
    ["вівторок", "вівторка", "вівторку", "вт"],
    ["середа", "середу", "середи", "середі", "ср"],
    ["четвер", "четверга", "четверя", "четверу", "чт"],
    ["п'ятниця", "п'ятницю", "п'ятниці", "пятниця", "пятницю", "пт"],
    ["субота", "суботу", "суботи", "суботі", "сб"],
  ],
  next: ["наступний", "наступну", "наступного", "наступної", "наступне"],
  nextAfter: [],
  thisWeek: ["цей", "цю", "це", "найближчий", "найближчу"],
  months: [
    ["січень", "січня", "січні", "січ"],
    ["лютий", "лютого", "лютому", "лют"],
    ["березень", "березня", "березні", "бер"],
    ["квітень", "квітня", "квітні", "квіт"],
    ["травень", "травня", "травні", "трав"],
    ["червень", "червня", "червні", "черв"],
    ["липень", "липня", "липні", "лип"],
    ["серпень", "серпня", "серпні", "серп"],
    ["вересень", "вересня", "вересні", "вер"],
    ["жовтень", "жовтня", "жовтні", "жовт"],
    ["листопад", "листопада", "листопаді", "лист"],
    ["грудень", "грудня", "грудні", "груд"],
  ],
  weekStart: 1,
  on: ["в", "у", "на"],
  at: ["о", "об", "на", "в", "близько"],
  due: ["до", "не пізніше"],
  start: ["з", "із", "від", "починаючи з", "починаючи від"],
  attached: { on: [], start: [], due: [] },
  in: ["через", "за"],
  units: {
    day: ["день", "дні", "днів", "дня"],
    week: ["тиждень", "тижні", "тижнів", "тижня"],
    month: ["місяць", "місяці", "місяців", "місяця"],
    year: ["рік", "роки", "років", "року"],
    hour: ["годину", "години", "годин", "год"],
    minute: ["хвилину", "хвилини", "хвилин", "хв"],
  },
  duals: { day: [], week: [], month: [], year: [] },
  numbers: {
    один: 1,
    одну: 1,
    два: 2,
    дві: 2,
    три: 3,
    чотири: 4,
    "п'ять": 5,
    шість: 6,
    сім: 7,
    вісім: 8,
    "дев'ять": 9,
    десять: 10,
    пару: 2,
  },
  am: ["ранку", "ночі", "зранку"],
  pm: ["дня", "вечора", "пополудні"],
  dayParts: {
    morning: ["вранці", "зранку", "уранці", "зранья"],
    noon: ["опівдні", "в обід", "на обід"],
    afternoon: ["вдень", "удень", "після обіду", "пополудні"],
    evening: ["ввечері", "увечері", "ввечорі", "вечором"],
    night: ["вночі", "уночі"],
  },
  hourWords: ["год", "год.", "годині", "годин"],
  every: ["кожен", "кожний", "кожного", "кожну", "кожні", "кожне", "кожної", "кожним"],
  everyOther: ["другий", "другу", "другого", "другої"],
  adverbs: {
    day: ["щодня", "щоденно", "щодениці"],
    week: ["щотижня", "щотижнево"],
    month: ["щомісяця", "щомісячно"],
    year: ["щороку", "щорічно"],
    fortnightly: ["раз на два тижні", "раз на 2 тижні"],
  },
  workdays: ["по буднях", "щобудня", "кожного робочого дня", "у будні", "в будні", "по вихідних", "щовихідних"],
  and: ["і", "й", "та", ","],
  andWeekdays: [],
  monthFirst: false,
};

const he: Language = {
  today: ["היום"],
  tomorrow: ["מחר"],
  dayAfterTomorrow: ["מחרתיים"],
  weekdays: [
    ["יום ראשון", "יום א'"],
    ["יום שני", "יום ב'"],
    ["יום שלישי", "יום ג'"],
    ["יום רביעי", "יום ד'"],
    ["יום חמישי", "יום ה'"],
    ["יום שישי", "יום ו'", "שישי"],
    ["שבת", "יום שבת", "יום ש'"],
  ],
  next: [],
  nextAfter: ["הבא", "הבאה", "הקרוב", "הקרובה", "בשבוע הבא"],
  thisWeek: [],
  months: [
    ["ינואר", "ינו'"],
    ["פברואר", "פבר'"],
    ["מרץ", "מרס"],
    ["אפריל", "אפר'"],
    ["מאי"],
    ["יוני"],
    ["יולי"],
    ["אוגוסט", "אוג'"],
    ["ספטמבר", "ספט'"],
    ["אוקטובר", "אוק'"],
    ["נובמבר", "נוב'"],
    ["דצמבר", "דצמ'"],
  ],
  weekStart: 0,
  on: [],
  at: ["בשעה", "בסביבות", "סביבות", "לקראת"],
  due: ["עד"],
  start: ["החל"],
  attached: { on: ["ב", "ל", "וב", "ול"], start: ["מ", "ומ"], due: [] },
  in: ["בעוד", "עוד", "תוך", "בתוך"],
  units: {
    day: ["יום", "ימים"],
    week: ["שבוע", "שבועות"],
    month: ["חודש", "חודשים"],
    year: ["שנה", "שנים"],
    hour: ["שעה", "שעות"],
    minute: ["דקה", "דקות"],
  },
  duals: { day: ["יומיים"], week: ["שבועיים"], month: ["חודשיים"], year: ["שנתיים"] },
  numbers: {
    אחד: 1,
    אחת: 1,
    שניים: 2,
    שתיים: 2,
    שני: 2,
    שתי: 2,
    שלושה: 3,
    שלוש: 3,
    ארבעה: 4,
    ארבע: 4,
    חמישה: 5,
    חמש: 5,
    שישה: 6,
    שש: 6,
    שבעה: 7,
    שבע: 7,
    עשרה: 10,
    עשר: 10,
  },
  am: ["בבוקר", 'לפנה"צ', "לפני הצהריים", "בלילה"],
  pm: ["בערב", 'אחה"צ', "אחרי הצהריים", "אחר הצהריים", "בצהריים"],
  dayParts: {
    morning: ["בבוקר", "בוקר"],
    noon: ["בצהריים", "צהריים"],
    afternoon: ['אחה"צ', "אחרי הצהריים", "אחר הצהריים"],
    evening: ["בערב", "ערב"],
    night: ["בלילה", "לילה"],
  },
  hourWords: [],
  every: ["כל", "בכל", "מדי"],
  everyOther: [],
  adverbs: {
    day: ["יומי", "יומית"],
    week: ["שבועי", "שבועית"],
    month: ["חודשי", "חודשית"],
    year: ["שנתי", "שנתית"],
    fortnightly: [],
  },
  workdays: ["כל יום חול", "בימי חול", "בכל יום חול", "ימי חול", "כל סוף שבוע", "בסופי שבוע", "א'-ה'"],
  and: ["ו", ","],
  andWeekdays: ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי"],
  monthFirst: false,
};

export const LANGUAGES: Readonly<Record<Locale, Language>> = { en, cs, he, ru, ua };

/** Priority words after "!", in every language (the user may mix): urgent, high, normal, low. */
export const PRIORITY_WORDS: Readonly<Record<"urgent" | "high" | "normal" | "low", string[]>> = {
  urgent: [
    "urgent",
    "asap",
    "critical",
    "urgentní",
    "naléhavé",
    "naléhavá",
    "hned",
    "срочно",
    "срочный",
    "срочная",
    "терміново",
    "терміновий",
    "термінова",
    "דחוף",
    "דחופה",
  ],
  high: [
    "high",
    "important",
    "vysoká",
    "vysoka",
    "důležité",
    "důležitá",
    "высокий",
    "высокая",
    "важно",
    "важный",
    "високий",
    "висока",
    "важливо",
    "גבוהה",
    "גבוה",
    "חשוב",
    "חשובה",
  ],
  normal: [
    "normal",
    "medium",
    "normální",
    "střední",
    "běžná",
    "обычный",
    "обычная",
    "средний",
    "средняя",
    "звичайний",
    "звичайна",
    "середній",
    "середня",
    "רגילה",
    "רגיל",
    "בינונית",
  ],
  low: ["low", "nízká", "nizka", "nízké", "низкий", "низкая", "низький", "низька", "נמוכה", "נמוך"],
};
