// The demo schools' fixed ids, at the bottom layer: the seed (lib/startup/seed) writes rows with them,
// README, tests and curl examples name them, and a feature may recognise the demo school by its id
// (local webhook receivers, lib/webhooks/endpoint-input.ts) without importing the seed above it.

export const demoId = (group: number, n: number): string =>
  `5c400000-0000-4000-8000-${group.toString(16).padStart(4, "0")}${n.toString(16).padStart(8, "0")}`;

export const DEMO_IDS = {
  school: demoId(1, 1),
  acmeSchool: demoId(1, 2),
  users: {
    owner: demoId(2, 1),
    manager: demoId(2, 2),
    admin: demoId(2, 3),
    teacher: demoId(2, 4),
    teachingAssistant: demoId(2, 5),
    student: demoId(2, 6),
    reviewer: demoId(2, 7),
    multiRole: demoId(2, 8),
    acmeEmployee: demoId(2, 9),
  },
  plans: {
    monthly: demoId(3, 1),
    summerCohort: demoId(3, 2),
    bootcamp: demoId(3, 3),
    lifetime: demoId(3, 4),
    legacyAnnual: demoId(3, 5),
    acmeAnnual: demoId(3, 6),
  },
  apiKeys: { full: demoId(4, 1), none: demoId(4, 2), acmeFull: demoId(4, 3) },
  // Named here for tests and examples; the rows come from content/demo/courses/*.md (their `id`).
  courses: { introToSql: demoId(7, 1), pythonForDataAnalysis: demoId(7, 2) },
} as const;
