import type { ModuleId } from "./ids";

/** What each feature module is, in English, for the admin API and the table of docs/modules.md. */
export const MODULE_CATALOG: Readonly<Record<ModuleId, { name: string; description: string }>> = {
  gamification: {
    name: "Gamification",
    description: "Points for completed tasks, daily streaks, levels, badges and the opt-in leaderboard.",
  },
  templates: {
    name: "Templates",
    description: "Predefined task sets with subtasks and relative due dates; applying one creates all its tasks.",
  },
  media: {
    name: "Media",
    description: "Text, audio, photo and video items attached to tasks, with transcription where an AI endpoint is set.",
  },
  projects: {
    name: "Projects",
    description:
      "Projects with owners, admins, members and viewers (/projects). While off, tasks already in a project stay " +
      "visible to its members, but no task can be put into a project.",
  },
  family: {
    name: "Family workspace",
    description:
      "A family of parents and children sharing task groups (/family). While off, tasks in shared groups stay " +
      "visible to the family, but nothing about the family can be seen or changed.",
  },
  "spaced-repetition": {
    name: "Spaced repetition",
    description: "Review cards linked to goals or tasks, scheduled with FSRS; due reviews in the briefing.",
  },
  "time-tracking": {
    name: "Time tracking",
    description: "Timers and manual time entries on tasks, reports per task and per user, CSV export.",
  },
  activity: {
    name: "Activity monitor",
    description: "Phone usage reported by the apps, with daily and hourly summaries and a weekly analysis (/activity).",
  },
  ai: {
    name: "AI assistant",
    description:
      "The assistant's chat, the daily briefing, study plans for goals and the weekly report's narrative. While off, " +
      "goals and weekly reports still work, the reports without a narrative.",
  },
  erp: {
    name: "ERP connector",
    description: "Exchanges data with an ERP system (its modules, status, import and export).",
  },
  learning: {
    name: "Learning platform connector",
    description: "Courses become goals and assignments tasks; completion and grades go back.",
  },
  accounting: {
    name: "Accounting connector",
    description: "Synchronises invoices with an accounting system through its XML adapter.",
  },
  deploy: {
    name: "Deploy webhook",
    description: "Triggers a redeployment from a webhook verified by an HMAC signature.",
  },
};
