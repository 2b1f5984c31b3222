import { createTranslator } from "use-intl/core";
import { languageTag, type Locale } from "../i18n/locales";

/*
 * The built-in assistant's words, in the five languages (ICU messages, plurals included). Values that come from
 * the user (titles) and dates formatted with Intl are passed in; the sentences are whole here, never pieced
 * together from fragments. Requests to move a task it understands in English and Czech only; its help says so.
 */

const en = {
  taskLine: "• {title} – {due}",
  taskLineNoDue: "• {title}",
  more: "…and {count, plural, one {# more} other {# more}}",
  dueTodayNone: "Nothing is due today.",
  dueToday: "Due today ({count, plural, one {# task} other {# tasks}}):",
  dueOnNone: "Nothing is due on {date}.",
  dueOn: "Due on {date} ({count, plural, one {# task} other {# tasks}}):",
  dueWeekNone: "Nothing is due this week (until {date}).",
  dueWeek: "Due this week, until {date} ({count, plural, one {# task} other {# tasks}}):",
  overdueNone: "Nothing is overdue.",
  overdue: "Overdue ({count, plural, one {# task} other {# tasks}}):",
  openCount: "You have {count, plural, =0 {no open tasks} one {# open task} other {# open tasks}}.",
  overdueCount: "{count, plural, one {# of them is overdue.} other {# of them are overdue.}}",
  todayCount: "{count, plural, one {# is due today.} other {# are due today.}}",
  nextNone: "You have no open tasks, so nothing to do next.",
  next: "Next I would do “{title}”: {reason, select, overdue {it has been overdue since {due}} today {it is due today at {due}} due {it is due {due}} urgent {it is urgent} high {it has high priority} other {nothing else is more pressing}}.",
  nextAfter: "After that:",
  goalsNone: "You have no active goals.",
  goals: "Your goals:",
  goalLine: "• {title}: {progress}%",
  goalLineTarget: "• {title}: {progress}% (target {date})",
  createNeedsTitle: "What should the new task be called? For example: “add task Buy milk tomorrow”.",
  createProposal: "Shall I add the task “{title}”, due {due}? Confirm it below.",
  createProposalNoDue: "Shall I add the task “{title}” (without a due date)? Confirm it below.",
  rescheduleNeedsTask: "Which task should I move? For example: “move Buy milk to Friday”.",
  rescheduleNotFound: "I found no open task of yours matching “{query}”.",
  rescheduleAmbiguous: "Several of your tasks match “{query}”: {titles}. Which one do you mean?",
  rescheduleNeedsDate: "When should “{title}” be due? For example: “move {title} to Friday”.",
  rescheduleProposal: "Shall I move “{title}” to {due}? Confirm it below.",
  overview: "Here is where you stand:",
  help: "Ask me what is due today or this week, what is overdue, how many tasks are open, what to do next or how your goals are doing; or say “add task … tomorrow” or “move … to Friday”.",
  briefingEmpty: "Nothing is due on {date} and nothing is overdue: a free day.",
  briefingDay:
    "{count, plural, =0 {Nothing is due on {date}.} one {# task is due on {date}.} other {# tasks are due on {date}.}}",
  briefingOverdue: "{count, plural, one {# task is overdue.} other {# tasks are overdue.}}",
  briefingStart: "Start with “{title}”.",
  briefingGoal: "Your goal “{title}” is at {progress}%.",
  briefingGoalTarget: "Your goal “{title}” is at {progress}%; its target date is {date}.",
  briefingReviews: "{count, plural, one {# card is waiting for review.} other {# cards are waiting for review.}}",
  weeklyDone:
    "From {start} to {end} you completed {completed, plural, =0 {no tasks} one {# task} other {# tasks}} and created {created, plural, =0 {none} one {# new one} other {# new ones}}.",
  weeklyOpen: "{count, plural, =0 {No task is open now.} one {# task is still open.} other {# tasks are still open.}}",
  weeklyOverdue: "{count, plural, one {# of them is overdue.} other {# of them are overdue.}}",
  weeklyGoalMoved: "Goal “{title}”: from {from}% to {to}%.",
  weeklyGoalSame: "Goal “{title}”: still at {to}%.",
  weeklyGoalNow: "Goal “{title}”: now at {to}%.",
};

type Messages = Record<keyof typeof en, string>;

const cs: Messages = {
  taskLine: "• {title} – {due}",
  taskLineNoDue: "• {title}",
  more: "…a {count, plural, one {# další} few {# další} other {# dalších}}",
  dueTodayNone: "Dnes nemáte nic k termínu.",
  dueToday: "Dnes k termínu ({count, plural, one {# úkol} few {# úkoly} other {# úkolů}}):",
  dueOnNone: "Na {date} nemáte nic k termínu.",
  dueOn: "K termínu {date} ({count, plural, one {# úkol} few {# úkoly} other {# úkolů}}):",
  dueWeekNone: "Tento týden (do {date}) nemáte nic k termínu.",
  dueWeek: "K termínu tento týden, do {date} ({count, plural, one {# úkol} few {# úkoly} other {# úkolů}}):",
  overdueNone: "Nic není po termínu.",
  overdue: "Po termínu ({count, plural, one {# úkol} few {# úkoly} other {# úkolů}}):",
  openCount:
    "{count, plural, =0 {Nemáte žádné otevřené úkoly.} one {Máte # otevřený úkol.} few {Máte # otevřené úkoly.} other {Máte # otevřených úkolů.}}",
  overdueCount: "{count, plural, one {# z nich je po termínu.} few {# z nich jsou po termínu.} other {# z nich je po termínu.}}",
  todayCount: "{count, plural, one {# má termín dnes.} few {# mají termín dnes.} other {# má termín dnes.}}",
  nextNone: "Nemáte žádné otevřené úkoly, takže teď není co dělat.",
  next: "Jako další bych udělal(a) „{title}“: {reason, select, overdue {je po termínu od {due}} today {má termín dnes v {due}} due {má termín {due}} urgent {je naléhavý} high {má vysokou prioritu} other {nic jiného nespěchá víc}}.",
  nextAfter: "Potom:",
  goalsNone: "Nemáte žádné aktivní cíle.",
  goals: "Vaše cíle:",
  goalLine: "• {title}: {progress} %",
  goalLineTarget: "• {title}: {progress} % (cílové datum {date})",
  createNeedsTitle: "Jak se má nový úkol jmenovat? Například: „přidej úkol Koupit mléko zítra“.",
  createProposal: "Mám přidat úkol „{title}“ s termínem {due}? Potvrďte to níže.",
  createProposalNoDue: "Mám přidat úkol „{title}“ (bez termínu)? Potvrďte to níže.",
  rescheduleNeedsTask: "Který úkol mám přesunout? Například: „přesuň Koupit mléko na pátek“.",
  rescheduleNotFound: "Nenašel (nenašla) jsem žádný váš otevřený úkol, který by odpovídal „{query}“.",
  rescheduleAmbiguous: "„{query}“ odpovídá několik vašich úkolů: {titles}. Který myslíte?",
  rescheduleNeedsDate: "Kdy má mít „{title}“ termín? Například: „přesuň {title} na pátek“.",
  rescheduleProposal: "Mám přesunout „{title}“ na {due}? Potvrďte to níže.",
  overview: "Takhle na tom jste:",
  help: "Zeptejte se mě, co máte dnes nebo tento týden, co je po termínu, kolik úkolů je otevřených, co dělat dál nebo jak jsou na tom vaše cíle; nebo napište „přidej úkol … zítra“ či „přesuň … na pátek“.",
  briefingEmpty: "Na {date} nemáte nic k termínu a nic není po termínu: volný den.",
  briefingDay:
    "{count, plural, =0 {Na {date} nemáte nic k termínu.} one {Na {date} máte # úkol k termínu.} few {Na {date} máte # úkoly k termínu.} other {Na {date} máte # úkolů k termínu.}}",
  briefingOverdue: "{count, plural, one {# úkol je po termínu.} few {# úkoly jsou po termínu.} other {# úkolů je po termínu.}}",
  briefingStart: "Začněte úkolem „{title}“.",
  briefingGoal: "Váš cíl „{title}“ je splněn na {progress} %.",
  briefingGoalTarget: "Váš cíl „{title}“ je splněn na {progress} %; cílové datum je {date}.",
  briefingReviews:
    "{count, plural, one {# kartička čeká na opakování.} few {# kartičky čekají na opakování.} other {# kartiček čeká na opakování.}}",
  weeklyDone:
    "Od {start} do {end} jste {completed, plural, =0 {nedokončili žádný úkol} one {dokončili # úkol} few {dokončili # úkoly} other {dokončili # úkolů}} a {created, plural, =0 {nevytvořili žádný nový} one {vytvořili # nový} few {vytvořili # nové} other {vytvořili # nových}}.",
  weeklyOpen:
    "{count, plural, =0 {Teď nemáte žádný otevřený úkol.} one {# úkol je stále otevřený.} few {# úkoly jsou stále otevřené.} other {# úkolů je stále otevřených.}}",
  weeklyOverdue: "{count, plural, one {# z nich je po termínu.} few {# z nich jsou po termínu.} other {# z nich je po termínu.}}",
  weeklyGoalMoved: "Cíl „{title}“: z {from} % na {to} %.",
  weeklyGoalSame: "Cíl „{title}“: stále na {to} %.",
  weeklyGoalNow: "Cíl „{title}“: nyní na {to} %.",
};

const he: Messages = {
  taskLine: "• {title} – {due}",
  taskLineNoDue: "• {title}",
  more: "…ועוד {count, plural, one {אחת} two {#} other {#}}",
  dueTodayNone: "אין משימות לביצוע היום.",
  dueToday: "לביצוע היום ({count, plural, one {משימה אחת} two {# משימות} other {# משימות}}):",
  dueOnNone: "אין משימות לביצוע ב־{date}.",
  dueOn: "לביצוע ב־{date} ({count, plural, one {משימה אחת} two {# משימות} other {# משימות}}):",
  dueWeekNone: "אין משימות לביצוע השבוע (עד {date}).",
  dueWeek: "לביצוע השבוע, עד {date} ({count, plural, one {משימה אחת} two {# משימות} other {# משימות}}):",
  overdueNone: "אין משימות באיחור.",
  overdue: "באיחור ({count, plural, one {משימה אחת} two {# משימות} other {# משימות}}):",
  openCount:
    "{count, plural, =0 {אין לך משימות פתוחות.} one {יש לך משימה פתוחה אחת.} two {יש לך # משימות פתוחות.} other {יש לך # משימות פתוחות.}}",
  overdueCount: "{count, plural, one {אחת מהן באיחור.} two {# מהן באיחור.} other {# מהן באיחור.}}",
  todayCount: "{count, plural, one {אחת מהן לביצוע היום.} two {# מהן לביצוע היום.} other {# מהן לביצוע היום.}}",
  nextNone: "אין לך משימות פתוחות, כך שאין מה לעשות כרגע.",
  next: "הייתי מתחיל/ה עכשיו ב„{title}”: {reason, select, overdue {היא באיחור מאז {due}} today {מועד היעד שלה היום ב־{due}} due {מועד היעד שלה {due}} urgent {היא דחופה} high {העדיפות שלה גבוהה} other {שום דבר אחר לא דחוף יותר}}.",
  nextAfter: "אחר כך:",
  goalsNone: "אין לך יעדים פעילים.",
  goals: "היעדים שלך:",
  goalLine: "• {title}: {progress}%",
  goalLineTarget: "• {title}: {progress}% (תאריך יעד {date})",
  createNeedsTitle: "איך לקרוא למשימה החדשה? למשל: „הוסף משימה לקנות חלב מחר”.",
  createProposal: "להוסיף את המשימה „{title}” עם מועד יעד {due}? אשר/י למטה.",
  createProposalNoDue: "להוסיף את המשימה „{title}” (ללא מועד יעד)? אשר/י למטה.",
  rescheduleNeedsTask: "איזו משימה להזיז? כרגע אני מבין/ה בקשות באנגלית ובצ׳כית, למשל: „move Buy milk to Friday”.",
  rescheduleNotFound: "לא מצאתי משימה פתוחה שלך שמתאימה ל„{query}”.",
  rescheduleAmbiguous: "כמה מהמשימות שלך מתאימות ל„{query}”: {titles}. לאיזו התכוונת?",
  rescheduleNeedsDate: "מתי יהיה מועד היעד של „{title}”? למשל: „move {title} to Friday”.",
  rescheduleProposal: "להזיז את „{title}” ל־{due}? אשר/י למטה.",
  overview: "זה המצב שלך:",
  help: "אפשר לשאול מה צריך לעשות היום או השבוע, מה באיחור, כמה משימות פתוחות, מה כדאי לעשות עכשיו או איך מתקדמים היעדים; או לכתוב „הוסף משימה … מחר”. להזיז משימות אני יודע/ת כרגע רק באנגלית ובצ׳כית: „move … to Friday”.",
  briefingEmpty: "אין משימות לביצוע ב־{date} ואין משימות באיחור: יום פנוי.",
  briefingDay:
    "{count, plural, =0 {אין משימות לביצוע ב־{date}.} one {משימה אחת לביצוע ב־{date}.} two {# משימות לביצוע ב־{date}.} other {# משימות לביצוע ב־{date}.}}",
  briefingOverdue: "{count, plural, one {משימה אחת באיחור.} two {# משימות באיחור.} other {# משימות באיחור.}}",
  briefingStart: "כדאי להתחיל ב„{title}”.",
  briefingGoal: "היעד שלך „{title}” הושלם ב־{progress}%.",
  briefingGoalTarget: "היעד שלך „{title}” הושלם ב־{progress}%; תאריך היעד הוא {date}.",
  briefingReviews:
    "{count, plural, one {כרטיס אחד ממתין לחזרה.} two {# כרטיסים ממתינים לחזרה.} other {# כרטיסים ממתינים לחזרה.}}",
  weeklyDone:
    "בין {start} ל־{end} {completed, plural, =0 {לא השלמת משימות} one {השלמת משימה אחת} two {השלמת # משימות} other {השלמת # משימות}} ו{created, plural, =0 {לא יצרת משימות חדשות} one {יצרת משימה חדשה אחת} two {יצרת # משימות חדשות} other {יצרת # משימות חדשות}}.",
  weeklyOpen:
    "{count, plural, =0 {אין כרגע משימות פתוחות.} one {משימה אחת עדיין פתוחה.} two {# משימות עדיין פתוחות.} other {# משימות עדיין פתוחות.}}",
  weeklyOverdue: "{count, plural, one {אחת מהן באיחור.} two {# מהן באיחור.} other {# מהן באיחור.}}",
  weeklyGoalMoved: "היעד „{title}”: מ־{from}% ל־{to}%.",
  weeklyGoalSame: "היעד „{title}”: עדיין {to}%.",
  weeklyGoalNow: "היעד „{title}”: כעת {to}%.",
};

const ru: Messages = {
  taskLine: "• {title} – {due}",
  taskLineNoDue: "• {title}",
  more: "…и ещё {count, plural, one {#} few {#} many {#} other {#}}",
  dueTodayNone: "На сегодня ничего не запланировано.",
  dueToday: "Срок сегодня ({count, plural, one {# задача} few {# задачи} many {# задач} other {# задачи}}):",
  dueOnNone: "На {date} ничего не запланировано.",
  dueOn: "Срок {date} ({count, plural, one {# задача} few {# задачи} many {# задач} other {# задачи}}):",
  dueWeekNone: "На этой неделе (до {date}) ничего не запланировано.",
  dueWeek: "Срок на этой неделе, до {date} ({count, plural, one {# задача} few {# задачи} many {# задач} other {# задачи}}):",
  overdueNone: "Просроченных задач нет.",
  overdue: "Просрочено ({count, plural, one {# задача} few {# задачи} many {# задач} other {# задачи}}):",
  openCount:
    "У вас {count, plural, =0 {нет открытых задач} one {# открытая задача} few {# открытые задачи} many {# открытых задач} other {# открытой задачи}}.",
  overdueCount:
    "{count, plural, one {# из них просрочена.} few {# из них просрочены.} many {# из них просрочено.} other {# из них просрочено.}}",
  todayCount:
    "{count, plural, one {У # срок сегодня.} few {У # срок сегодня.} many {У # срок сегодня.} other {У # срок сегодня.}}",
  nextNone: "У вас нет открытых задач, так что делать пока нечего.",
  next: "Следующим я бы сделал(а) «{title}»: {reason, select, overdue {она просрочена с {due}} today {срок сегодня в {due}} due {срок {due}} urgent {она срочная} high {у неё высокий приоритет} other {ничего более срочного нет}}.",
  nextAfter: "Затем:",
  goalsNone: "У вас нет активных целей.",
  goals: "Ваши цели:",
  goalLine: "• {title}: {progress}%",
  goalLineTarget: "• {title}: {progress}% (целевая дата {date})",
  createNeedsTitle: "Как назвать новую задачу? Например: «добавь задачу Купить молоко на завтра».",
  createProposal: "Добавить задачу «{title}» со сроком {due}? Подтвердите ниже.",
  createProposalNoDue: "Добавить задачу «{title}» (без срока)? Подтвердите ниже.",
  rescheduleNeedsTask:
    "Какую задачу перенести? Пока я понимаю запросы на английском и чешском, например: «move Buy milk to Friday».",
  rescheduleNotFound: "Я не нашёл (не нашла) вашей открытой задачи, подходящей под «{query}».",
  rescheduleAmbiguous: "Под «{query}» подходят несколько ваших задач: {titles}. Какую вы имеете в виду?",
  rescheduleNeedsDate: "Когда должен быть срок «{title}»? Например: «move {title} to Friday».",
  rescheduleProposal: "Перенести «{title}» на {due}? Подтвердите ниже.",
  overview: "Вот ваша картина:",
  help: "Спросите, что у вас на сегодня или на этой неделе, что просрочено, сколько задач открыто, что делать дальше или как дела с целями; или напишите «добавь задачу … на завтра». Переносить задачи я пока умею только по-английски и по-чешски: «move … to Friday».",
  briefingEmpty: "На {date} ничего не запланировано и ничего не просрочено: свободный день.",
  briefingDay:
    "{count, plural, =0 {На {date} ничего не запланировано.} one {На {date} запланирована # задача.} few {На {date} запланированы # задачи.} many {На {date} запланировано # задач.} other {На {date} запланировано # задачи.}}",
  briefingOverdue:
    "{count, plural, one {# задача просрочена.} few {# задачи просрочены.} many {# задач просрочено.} other {# задачи просрочено.}}",
  briefingStart: "Начните с «{title}».",
  briefingGoal: "Ваша цель «{title}» выполнена на {progress}%.",
  briefingGoalTarget: "Ваша цель «{title}» выполнена на {progress}%; целевая дата — {date}.",
  briefingReviews:
    "{count, plural, one {# карточка ждёт повторения.} few {# карточки ждут повторения.} many {# карточек ждут повторения.} other {# карточки ждут повторения.}}",
  weeklyDone:
    "С {start} по {end} вы {completed, plural, =0 {не выполнили ни одной задачи} one {выполнили # задачу} few {выполнили # задачи} many {выполнили # задач} other {выполнили # задачи}} и {created, plural, =0 {не создали новых} one {создали # новую} few {создали # новые} many {создали # новых} other {создали # новой}}.",
  weeklyOpen:
    "{count, plural, =0 {Открытых задач сейчас нет.} one {# задача всё ещё открыта.} few {# задачи всё ещё открыты.} many {# задач всё ещё открыто.} other {# задачи всё ещё открыто.}}",
  weeklyOverdue:
    "{count, plural, one {# из них просрочена.} few {# из них просрочены.} many {# из них просрочено.} other {# из них просрочено.}}",
  weeklyGoalMoved: "Цель «{title}»: с {from}% до {to}%.",
  weeklyGoalSame: "Цель «{title}»: по-прежнему {to}%.",
  weeklyGoalNow: "Цель «{title}»: сейчас {to}%.",
};

const ua: Messages = {
  taskLine: "• {title} – {due}",
  taskLineNoDue: "• {title}",
  more: "…і ще {count, plural, one {#} few {#} many {#} other {#}}",
  dueTodayNone: "На сьогодні нічого не заплановано.",
  dueToday: "Термін сьогодні ({count, plural, one {# завдання} few {# завдання} many {# завдань} other {# завдання}}):",
  dueOnNone: "На {date} нічого не заплановано.",
  dueOn: "Термін {date} ({count, plural, one {# завдання} few {# завдання} many {# завдань} other {# завдання}}):",
  dueWeekNone: "Цього тижня (до {date}) нічого не заплановано.",
  dueWeek:
    "Термін цього тижня, до {date} ({count, plural, one {# завдання} few {# завдання} many {# завдань} other {# завдання}}):",
  overdueNone: "Прострочених завдань немає.",
  overdue: "Прострочено ({count, plural, one {# завдання} few {# завдання} many {# завдань} other {# завдання}}):",
  openCount:
    "У вас {count, plural, =0 {немає відкритих завдань} one {# відкрите завдання} few {# відкриті завдання} many {# відкритих завдань} other {# відкритого завдання}}.",
  overdueCount:
    "{count, plural, one {# з них прострочене.} few {# з них прострочені.} many {# з них прострочено.} other {# з них прострочено.}}",
  todayCount:
    "{count, plural, one {У # термін сьогодні.} few {У # термін сьогодні.} many {У # термін сьогодні.} other {У # термін сьогодні.}}",
  nextNone: "У вас немає відкритих завдань, тож робити поки нічого.",
  next: "Наступним я б зробив(ла) «{title}»: {reason, select, overdue {воно прострочене з {due}} today {термін сьогодні о {due}} due {термін {due}} urgent {воно термінове} high {у нього високий пріоритет} other {нічого терміновішого немає}}.",
  nextAfter: "Потім:",
  goalsNone: "У вас немає активних цілей.",
  goals: "Ваші цілі:",
  goalLine: "• {title}: {progress}%",
  goalLineTarget: "• {title}: {progress}% (цільова дата {date})",
  createNeedsTitle: "Як назвати нове завдання? Наприклад: «додай завдання Купити молоко на завтра».",
  createProposal: "Додати завдання «{title}» з терміном {due}? Підтвердьте нижче.",
  createProposalNoDue: "Додати завдання «{title}» (без терміну)? Підтвердьте нижче.",
  rescheduleNeedsTask:
    "Яке завдання перенести? Поки я розумію запити англійською та чеською, наприклад: «move Buy milk to Friday».",
  rescheduleNotFound: "Я не знайшов (не знайшла) вашого відкритого завдання, що відповідає «{query}».",
  rescheduleAmbiguous: "«{query}» відповідають кілька ваших завдань: {titles}. Яке ви маєте на увазі?",
  rescheduleNeedsDate: "Коли має бути термін «{title}»? Наприклад: «move {title} to Friday».",
  rescheduleProposal: "Перенести «{title}» на {due}? Підтвердьте нижче.",
  overview: "Ось ваша картина:",
  help: "Запитайте, що у вас на сьогодні чи цього тижня, що прострочено, скільки завдань відкрито, що робити далі або як справи з цілями; або напишіть «додай завдання … на завтра». Переносити завдання я поки вмію лише англійською та чеською: «move … to Friday».",
  briefingEmpty: "На {date} нічого не заплановано і нічого не прострочено: вільний день.",
  briefingDay:
    "{count, plural, =0 {На {date} нічого не заплановано.} one {На {date} заплановано # завдання.} few {На {date} заплановано # завдання.} many {На {date} заплановано # завдань.} other {На {date} заплановано # завдання.}}",
  briefingOverdue:
    "{count, plural, one {# завдання прострочене.} few {# завдання прострочені.} many {# завдань прострочено.} other {# завдання прострочено.}}",
  briefingStart: "Почніть з «{title}».",
  briefingGoal: "Ваша ціль «{title}» виконана на {progress}%.",
  briefingGoalTarget: "Ваша ціль «{title}» виконана на {progress}%; цільова дата — {date}.",
  briefingReviews:
    "{count, plural, one {# картка чекає на повторення.} few {# картки чекають на повторення.} many {# карток чекають на повторення.} other {# картки чекають на повторення.}}",
  weeklyDone:
    "З {start} по {end} ви {completed, plural, =0 {не виконали жодного завдання} one {виконали # завдання} few {виконали # завдання} many {виконали # завдань} other {виконали # завдання}} і {created, plural, =0 {не створили нових} one {створили # нове} few {створили # нові} many {створили # нових} other {створили # нового}}.",
  weeklyOpen:
    "{count, plural, =0 {Відкритих завдань зараз немає.} one {# завдання все ще відкрите.} few {# завдання все ще відкриті.} many {# завдань все ще відкрито.} other {# завдання все ще відкрито.}}",
  weeklyOverdue:
    "{count, plural, one {# з них прострочене.} few {# з них прострочені.} many {# з них прострочено.} other {# з них прострочено.}}",
  weeklyGoalMoved: "Ціль «{title}»: з {from}% до {to}%.",
  weeklyGoalSame: "Ціль «{title}»: досі {to}%.",
  weeklyGoalNow: "Ціль «{title}»: зараз {to}%.",
};

export const ASSISTANT_MESSAGES: Record<Locale, Messages> = { en, cs, he, ru, ua };
export type AssistantMessageKey = keyof Messages;

export type Translate = (key: AssistantMessageKey, values?: Record<string, string | number>) => string;

/** The built-in assistant's words in a language. */
export function assistantTranslator(locale: Locale): Translate {
  const t = createTranslator({ locale: languageTag(locale), messages: ASSISTANT_MESSAGES[locale] });
  return (key, values) => t(key, values);
}
