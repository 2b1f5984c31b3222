import type { Locale } from "../i18n/locales";
import type { Priority } from "../tasks/vocabulary";

/*
 * The three built-in templates every user sees: read-only, with fixed ids, every text in the five languages.
 * `dueAfter` is days after the apply date at a wall-clock time in the user's time zone (so across a DST change
 * 18:00 stays 18:00). defaults.test.ts checks that every text has all five languages.
 */

type Texts = Record<Locale, string>;

export interface BuiltInTask {
  title: Texts;
  priority: Priority;
  dueAfter: { days: number; hours: number; minutes: number } | null;
  subtasks: Texts[];
}

export interface BuiltInTemplate {
  id: string;
  key: string;
  name: Texts;
  description: Texts;
  tasks: BuiltInTask[];
}

const due = (days: number, hours: number, minutes = 0) => ({ days, hours, minutes });

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    id: "7e3c2a10-0001-4000-8000-000000000001",
    key: "moving-house",
    name: { en: "Moving house", cs: "Stěhování", he: "מעבר דירה", ru: "Переезд", ua: "Переїзд" },
    description: {
      en: "Three weeks from giving notice to handing over the keys.",
      cs: "Tři týdny od výpovědi po předání klíčů.",
      he: "שלושה שבועות מההודעה על עזיבה ועד מסירת המפתחות.",
      ru: "Три недели от уведомления об отъезде до передачи ключей.",
      ua: "Три тижні від повідомлення про виїзд до передачі ключів.",
    },
    tasks: [
      {
        title: {
          en: "Give notice and book the movers",
          cs: "Dát výpověď a objednat stěhováky",
          he: "למסור הודעה ולהזמין מובילים",
          ru: "Предупредить об отъезде и заказать грузчиков",
          ua: "Повідомити про виїзд і замовити вантажників",
        },
        priority: "high",
        dueAfter: due(1, 18),
        subtasks: [
          {
            en: "Give notice on the current flat",
            cs: "Vypovědět současný byt",
            he: "למסור הודעה על עזיבת הדירה הנוכחית",
            ru: "Предупредить хозяина нынешней квартиры",
            ua: "Повідомити власника теперішньої квартири",
          },
          {
            en: "Get three quotes from moving companies",
            cs: "Získat tři nabídky stěhovacích firem",
            he: "לקבל שלוש הצעות מחיר מחברות הובלה",
            ru: "Получить три предложения от транспортных компаний",
            ua: "Отримати три пропозиції від компаній з перевезень",
          },
          {
            en: "Book the moving date",
            cs: "Zarezervovat den stěhování",
            he: "לקבוע את תאריך המעבר",
            ru: "Забронировать дату переезда",
            ua: "Забронювати дату переїзду",
          },
        ],
      },
      {
        title: { en: "Pack", cs: "Zabalit", he: "לארוז", ru: "Упаковать вещи", ua: "Спакувати речі" },
        priority: "normal",
        dueAfter: due(10, 20),
        subtasks: [
          {
            en: "Buy boxes and tape",
            cs: "Koupit krabice a lepicí pásku",
            he: "לקנות קרטונים וסרט הדבקה",
            ru: "Купить коробки и скотч",
            ua: "Купити коробки та скотч",
          },
          {
            en: "Pack books and decorations",
            cs: "Zabalit knihy a dekorace",
            he: "לארוז ספרים וקישוטים",
            ru: "Упаковать книги и декор",
            ua: "Спакувати книжки та декор",
          },
          {
            en: "Label each box with its room",
            cs: "Označit každou krabici místností",
            he: "לסמן על כל קרטון את החדר שלו",
            ru: "Подписать на каждой коробке комнату",
            ua: "Підписати на кожній коробці кімнату",
          },
        ],
      },
      {
        title: { en: "Change your address", cs: "Změnit adresu", he: "לעדכן כתובת", ru: "Сменить адрес", ua: "Змінити адресу" },
        priority: "normal",
        dueAfter: due(14, 12),
        subtasks: [
          {
            en: "Mail forwarding at the post office",
            cs: "Dosílání pošty na poště",
            he: "העברת דואר בסניף הדואר",
            ru: "Переадресация почты на почте",
            ua: "Переадресація пошти на пошті",
          },
          {
            en: "Bank and insurance",
            cs: "Banka a pojišťovna",
            he: "בנק וביטוח",
            ru: "Банк и страховка",
            ua: "Банк і страхування",
          },
          {
            en: "Employer and doctor",
            cs: "Zaměstnavatel a lékař",
            he: "מקום העבודה והרופא",
            ru: "Работодатель и врач",
            ua: "Роботодавець і лікар",
          },
        ],
      },
      {
        title: { en: "Moving day", cs: "Den stěhování", he: "יום המעבר", ru: "День переезда", ua: "День переїзду" },
        priority: "urgent",
        dueAfter: due(21, 9),
        subtasks: [
          {
            en: "Read the meters",
            cs: "Odečíst měřiče",
            he: "לרשום את קריאות המונים",
            ru: "Снять показания счётчиков",
            ua: "Зняти показники лічильників",
          },
          { en: "Hand over the keys", cs: "Předat klíče", he: "למסור את המפתחות", ru: "Передать ключи", ua: "Передати ключі" },
          {
            en: "Check that nothing is left behind",
            cs: "Zkontrolovat, že nic nezůstalo",
            he: "לוודא ששום דבר לא נשכח",
            ru: "Проверить, что ничего не забыто",
            ua: "Перевірити, що нічого не забуто",
          },
        ],
      },
    ],
  },
  {
    id: "7e3c2a10-0002-4000-8000-000000000002",
    key: "weekly-review",
    name: { en: "Weekly review", cs: "Týdenní revize", he: "סקירה שבועית", ru: "Еженедельный обзор", ua: "Щотижневий огляд" },
    description: {
      en: "An hour or two to empty the inboxes, look back and plan the next week.",
      cs: "Hodina nebo dvě na vyprázdnění schránek, ohlédnutí a plán na další týden.",
      he: "שעה או שעתיים לרוקן את תיבות הדואר, להביט לאחור ולתכנן את השבוע הבא.",
      ru: "Час-два, чтобы разобрать входящие, оглянуться назад и спланировать следующую неделю.",
      ua: "Година-дві, щоб розібрати вхідні, озирнутися назад і спланувати наступний тиждень.",
    },
    tasks: [
      {
        title: {
          en: "Clear your inboxes",
          cs: "Vyprázdnit schránky",
          he: "לרוקן את תיבות הדואר",
          ru: "Разобрать входящие",
          ua: "Розібрати вхідні",
        },
        priority: "normal",
        dueAfter: due(0, 10),
        subtasks: [
          { en: "Email", cs: "E-mail", he: "דואר אלקטרוני", ru: "Электронная почта", ua: "Електронна пошта" },
          {
            en: "Messages and notes",
            cs: "Zprávy a poznámky",
            he: "הודעות ופתקים",
            ru: "Сообщения и заметки",
            ua: "Повідомлення та нотатки",
          },
          { en: "Paper tray", cs: "Papíry na stole", he: "מגש הניירות", ru: "Бумаги на столе", ua: "Папери на столі" },
        ],
      },
      {
        title: {
          en: "Look back at the past week",
          cs: "Ohlédnout se za minulým týdnem",
          he: "להביט לאחור על השבוע שעבר",
          ru: "Оглянуться на прошлую неделю",
          ua: "Озирнутися на минулий тиждень",
        },
        priority: "normal",
        dueAfter: due(0, 11),
        subtasks: [
          { en: "What went well", cs: "Co se povedlo", he: "מה הלך טוב", ru: "Что получилось", ua: "Що вдалося" },
          { en: "What got stuck", cs: "Co se zaseklo", he: "מה נתקע", ru: "Что застряло", ua: "Що застрягло" },
        ],
      },
      {
        title: {
          en: "Plan the coming week",
          cs: "Naplánovat příští týden",
          he: "לתכנן את השבוע הבא",
          ru: "Спланировать следующую неделю",
          ua: "Спланувати наступний тиждень",
        },
        priority: "high",
        dueAfter: due(0, 12),
        subtasks: [
          {
            en: "Check the calendar",
            cs: "Projít kalendář",
            he: "לעבור על היומן",
            ru: "Просмотреть календарь",
            ua: "Переглянути календар",
          },
          {
            en: "Pick three priorities",
            cs: "Vybrat tři priority",
            he: "לבחור שלושה סדרי עדיפויות",
            ru: "Выбрать три приоритета",
            ua: "Вибрати три пріоритети",
          },
          {
            en: "Block time to focus",
            cs: "Vyhradit čas na soustředěnou práci",
            he: "לשריין זמן לעבודה מרוכזת",
            ru: "Выделить время для сосредоточенной работы",
            ua: "Виділити час для зосередженої роботи",
          },
        ],
      },
    ],
  },
  {
    id: "7e3c2a10-0003-4000-8000-000000000003",
    key: "onboarding",
    name: {
      en: "Onboarding a new teammate",
      cs: "Zaškolení nového kolegy",
      he: "קליטת חבר צוות חדש",
      ru: "Адаптация нового коллеги",
      ua: "Адаптація нового колеги",
    },
    description: {
      en: "From preparing accounts the day before to a check-in after two weeks.",
      cs: "Od přípravy účtů den předem po rozhovor po dvou týdnech.",
      he: "מהכנת החשבונות יום לפני ועד שיחת מעקב אחרי שבועיים.",
      ru: "От подготовки учётных записей накануне до встречи через две недели.",
      ua: "Від підготовки облікових записів напередодні до зустрічі через два тижні.",
    },
    tasks: [
      {
        title: {
          en: "Prepare accounts and equipment",
          cs: "Připravit účty a vybavení",
          he: "להכין חשבונות וציוד",
          ru: "Подготовить учётные записи и технику",
          ua: "Підготувати облікові записи та техніку",
        },
        priority: "high",
        dueAfter: due(0, 17),
        subtasks: [
          {
            en: "Laptop and accessories",
            cs: "Notebook a příslušenství",
            he: "מחשב נייד ואביזרים",
            ru: "Ноутбук и аксессуары",
            ua: "Ноутбук і аксесуари",
          },
          {
            en: "Email and chat accounts",
            cs: "Účty pro e-mail a chat",
            he: "חשבונות דואר וצ'אט",
            ru: "Почта и чат",
            ua: "Пошта та чат",
          },
          {
            en: "Access to code and documents",
            cs: "Přístup ke kódu a dokumentům",
            he: "גישה לקוד ולמסמכים",
            ru: "Доступ к коду и документам",
            ua: "Доступ до коду та документів",
          },
        ],
      },
      {
        title: {
          en: "Welcome on the first day",
          cs: "Přivítání první den",
          he: "קבלת פנים ביום הראשון",
          ru: "Встреча в первый день",
          ua: "Зустріч у перший день",
        },
        priority: "normal",
        dueAfter: due(1, 9),
        subtasks: [
          {
            en: "Introduce the team",
            cs: "Představit tým",
            he: "להציג את הצוות",
            ru: "Познакомить с командой",
            ua: "Познайомити з командою",
          },
          { en: "Lunch together", cs: "Společný oběd", he: "ארוחת צהריים משותפת", ru: "Пообедать вместе", ua: "Пообідати разом" },
          {
            en: "Walk through the first week's plan",
            cs: "Projít plán prvního týdne",
            he: "לעבור על התוכנית לשבוע הראשון",
            ru: "Обсудить план первой недели",
            ua: "Обговорити план першого тижня",
          },
        ],
      },
      {
        title: {
          en: "Pair on a first small task",
          cs: "Udělat spolu první malý úkol",
          he: "לעבוד בזוג על משימה ראשונה קטנה",
          ru: "Вместе сделать первую небольшую задачу",
          ua: "Разом виконати перше невелике завдання",
        },
        priority: "normal",
        dueAfter: due(3, 15),
        subtasks: [
          {
            en: "Choose a small, well-defined task",
            cs: "Vybrat malý, jasně zadaný úkol",
            he: "לבחור משימה קטנה ומוגדרת היטב",
            ru: "Выбрать небольшую понятную задачу",
            ua: "Вибрати невелике зрозуміле завдання",
          },
          {
            en: "Review the result together",
            cs: "Společně projít výsledek",
            he: "לעבור יחד על התוצאה",
            ru: "Вместе разобрать результат",
            ua: "Разом розібрати результат",
          },
        ],
      },
      {
        title: {
          en: "Check in after two weeks",
          cs: "Rozhovor po dvou týdnech",
          he: "שיחת מעקב אחרי שבועיים",
          ru: "Встреча через две недели",
          ua: "Зустріч через два тижні",
        },
        priority: "normal",
        dueAfter: due(14, 14),
        subtasks: [
          {
            en: "Ask what is still unclear",
            cs: "Zeptat se, co je ještě nejasné",
            he: "לשאול מה עדיין לא ברור",
            ru: "Спросить, что ещё непонятно",
            ua: "Запитати, що ще незрозуміло",
          },
          {
            en: "Agree on goals for the first three months",
            cs: "Dohodnout cíle na první tři měsíce",
            he: "להסכים על יעדים לשלושת החודשים הראשונים",
            ru: "Договориться о целях на первые три месяца",
            ua: "Домовитися про цілі на перші три місяці",
          },
        ],
      },
    ],
  },
];

export function findBuiltInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((template) => template.id === id);
}
