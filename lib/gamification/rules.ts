import { addDays } from "../local-dates";

/*
 * The rules of the gamification module, pure: what a completed task is worth, the level a number of points
 * reaches, streaks from the days a user earned points on, and the badges. The routes' descriptions and docs/modules.md
 * say the same; rules.test.ts pins the numbers.
 */

/** Every completed task earns this. */
export const BASE_POINTS = 10;
/** Extra for a task completed at or before its due time (none for a task without one, or completed late). */
export const ON_TIME_BONUS = 10;
/** Extra by priority (low, normal, high, urgent), whenever the task is completed. */
export const PRIORITY_BONUS = [0, 0, 5, 10] as const;

export interface CompletedTaskFacts {
  /** 0 low … 3 urgent, as tasks store it. */
  priority: number;
  dueAt: Date | null;
  completedAt: Date;
}

export interface PointsBreakdown {
  points: number;
  basePoints: number;
  onTimeBonus: number;
  priorityBonus: number;
  /** Null when the task had no due time. */
  onTime: boolean | null;
}

/** What completing a task is worth: the base, the on-time bonus, the priority bonus. */
export function pointsFor(task: CompletedTaskFacts): PointsBreakdown {
  const onTime = task.dueAt ? task.completedAt.getTime() <= task.dueAt.getTime() : null;
  const onTimeBonus = onTime ? ON_TIME_BONUS : 0;
  const priorityBonus = PRIORITY_BONUS[task.priority] ?? 0;
  return { points: BASE_POINTS + onTimeBonus + priorityBonus, basePoints: BASE_POINTS, onTimeBonus, priorityBonus, onTime };
}

/** The points at which `level` starts: 25 × level × (level − 1), so level 1 at 0, 2 at 50, 3 at 150, 4 at 300... */
export function levelThreshold(level: number): number {
  return 25 * level * (level - 1);
}

/** The level a number of points reaches (1 at 0 points; no highest level). */
export function levelFor(points: number): number {
  let level = 1;
  while (levelThreshold(level + 1) <= points) level += 1;
  return level;
}

/** The first ten levels and where they start: the table the documentation shows. */
export const LEVEL_TABLE = Array.from({ length: 10 }, (_, index) => ({ level: index + 1, points: levelThreshold(index + 1) }));

export interface LevelProgress {
  level: number;
  /** Where the current level started. */
  levelPoints: number;
  /** Where the next level starts. */
  nextLevelPoints: number;
  /** How far from this level to the next, 0-100 (rounded down). */
  percent: number;
}

export function levelProgress(points: number): LevelProgress {
  const level = levelFor(points);
  const levelPoints = levelThreshold(level);
  const nextLevelPoints = levelThreshold(level + 1);
  const percent = Math.floor(((points - levelPoints) * 100) / (nextLevelPoints - levelPoints));
  return { level, levelPoints, nextLevelPoints, percent };
}

export interface Streaks {
  /** Consecutive local days up to today, or up to yesterday while today has no completion yet; else 0. */
  current: number;
  longest: number;
  lastActiveDate: string | null;
}

/**
 * Streaks from the local dates (YYYY-MM-DD) a user earned points on, ascending and distinct, as of `today` in
 * their time zone. Days are calendar days (addDays), so a 23- or 25-hour day at a DST change is one day.
 */
export function streaksOf(dates: readonly string[], today: string): Streaks {
  let longest = 0;
  let run = 0;
  let previous: string | null = null;
  for (const date of dates) {
    run = previous !== null && addDays(previous, 1) === date ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = date;
  }
  const alive = previous !== null && previous >= addDays(today, -1);
  return { current: alive ? run : 0, longest, lastActiveDate: previous };
}

/** What badges are measured by. */
export interface BadgeStats {
  /** Tasks that earned points. */
  tasks: number;
  /** Of them, completed at or before their due time. */
  onTime: number;
  /** Of them, shared with someone else. */
  shared: number;
  longestStreak: number;
  level: number;
}

export const BADGE_IDS = [
  "first_task",
  "tasks_10",
  "tasks_100",
  "early_bird",
  "team_player",
  "streak_7",
  "streak_30",
  "level_5",
] as const;
export type BadgeId = (typeof BADGE_IDS)[number];

export interface BadgeRule {
  id: BadgeId;
  measure: keyof BadgeStats;
  target: number;
  /** The rule in English, for API clients (the page has it in five languages). */
  rule: string;
}

export const BADGES: readonly BadgeRule[] = [
  { id: "first_task", measure: "tasks", target: 1, rule: "Complete your first task" },
  { id: "tasks_10", measure: "tasks", target: 10, rule: "Complete 10 tasks" },
  { id: "tasks_100", measure: "tasks", target: 100, rule: "Complete 100 tasks" },
  { id: "early_bird", measure: "onTime", target: 5, rule: "Complete 5 tasks at or before their due time" },
  {
    id: "team_player",
    measure: "shared",
    target: 1,
    rule: "Complete a task shared with others: someone else owns it, is assigned to it or collaborates on it, or it is assigned to a team",
  },
  { id: "streak_7", measure: "longestStreak", target: 7, rule: "Complete tasks on 7 days in a row" },
  { id: "streak_30", measure: "longestStreak", target: 30, rule: "Complete tasks on 30 days in a row" },
  { id: "level_5", measure: "level", target: 5, rule: "Reach level 5" },
];

/** The badges the stats reach. */
export function badgesReached(stats: BadgeStats): BadgeId[] {
  return BADGES.filter((badge) => stats[badge.measure] >= badge.target).map((badge) => badge.id);
}
