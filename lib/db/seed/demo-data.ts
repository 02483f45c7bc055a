// The demo schools' content. Ids are fixed so README, tests and curl examples can name them.

const id = (group: number, n: number) =>
  `5c400000-0000-4000-8000-${group.toString(16).padStart(4, "0")}${n.toString(16).padStart(8, "0")}`;

export const DEMO_IDS = {
  school: id(1, 1),
  acmeSchool: id(1, 2),
  users: {
    owner: id(2, 1),
    manager: id(2, 2),
    admin: id(2, 3),
    teacher: id(2, 4),
    teachingAssistant: id(2, 5),
    student: id(2, 6),
    reviewer: id(2, 7),
    multiRole: id(2, 8),
    acmeEmployee: id(2, 9),
  },
  plans: {
    monthly: id(3, 1),
    summerCohort: id(3, 2),
    bootcamp: id(3, 3),
    lifetime: id(3, 4),
    legacyAnnual: id(3, 5),
    acmeAnnual: id(3, 6),
  },
  apiKeys: { full: id(4, 1), none: id(4, 2), acmeFull: id(4, 3) },
} as const;

export const DEMO_USER_EMAIL_DOMAIN = "schoolhouse.test";
export const DEFAULT_DEMO_PASSWORD = "schoolhouse-demo";
export const DEFAULT_DEMO_API_KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
export const DEFAULT_DEMO_API_KEY_NO_PERMISSIONS = "sh_demonone_demo-admin-key-no-permissions-dev-only";
export const ACME_API_KEY = "sh_acmefull_acme-admin-key-all-permissions-dev-only";

export const CUSTOM_ROLES = ["alumni", "content_reviewer"] as const;

export interface DemoUser {
  id: string;
  email: string;
  name: string;
  roles: string[];
  avatarUrl?: string;
  school: "demo" | "acme";
}

const email = (local: string) => `${local}@${DEMO_USER_EMAIL_DOMAIN}`;

export const DEMO_USERS: DemoUser[] = [
  { id: DEMO_IDS.users.owner, email: email("owner"), name: "Olivia Park", roles: ["owner"], school: "demo" },
  { id: DEMO_IDS.users.manager, email: email("manager"), name: "Marcus Chen", roles: ["manager"], school: "demo" },
  { id: DEMO_IDS.users.admin, email: email("admin"), name: "Adaeze Okafor", roles: ["admin"], school: "demo" },
  { id: DEMO_IDS.users.teacher, email: email("teacher"), name: "Tomás Rivera", roles: ["teacher"], school: "demo" },
  {
    id: DEMO_IDS.users.teachingAssistant,
    email: email("ta"),
    name: "Priya Nair",
    roles: ["teaching_assistant"],
    school: "demo",
  },
  {
    id: DEMO_IDS.users.student,
    email: email("student"),
    name: "Jamie Lee",
    roles: ["student"],
    avatarUrl: "https://avatars.schoolhouse.test/jamie-lee.png",
    school: "demo",
  },
  {
    id: DEMO_IDS.users.reviewer,
    email: email("reviewer"),
    name: "Noor Haddad",
    roles: ["content_reviewer"],
    school: "demo",
  },
  {
    id: DEMO_IDS.users.multiRole,
    email: email("multi"),
    name: "Rin Takeda",
    // Deliberately unordered: UserInfo must sort built-ins by privilege, then custom roles A–Z.
    roles: ["student", "content_reviewer", "teacher", "alumni"],
    school: "demo",
  },
  { id: DEMO_IDS.users.acmeEmployee, email: email("employee"), name: "Dana Whitfield", roles: ["student"], school: "acme" },
];

/** Memberships beyond each user's home school: a member of two schools exercises the OAuth school picker. */
export const EXTRA_MEMBERSHIPS: { userId: string; school: "demo" | "acme"; roles: string[] }[] = [
  { userId: DEMO_IDS.users.multiRole, school: "acme", roles: ["student"] },
];

export const DEMO_SCHOOL = {
  id: DEMO_IDS.school,
  subdomain: "demo",
  name: "Schoolhouse Demo Academy",
  description: "Practical courses in data, writing and photography, taught by working professionals.",
  enterpriseTraining: false,
};

export const ACME_SCHOOL = {
  id: DEMO_IDS.acmeSchool,
  subdomain: "acme-training",
  name: "Acme Corp Training",
  description: "Internal training for Acme Corp employees.",
  enterpriseTraining: true,
};

export const DEMO_HOME = {
  title: "Learn skills that ship",
  tagline: "Short, practical courses from people who do the work every day.",
  body: `## Why learn with us

- **Project-based**: every course ends with something you can show.
- **Live office hours** every week with the lecturers.
- **Lifetime updates**: courses are revised as tools change.

## Start here

New to data? Begin with [Intro to SQL](/courses/intro-to-sql), then move on to
[Python for Data Analysis](/courses/python-for-data-analysis).
`,
};

export const ACME_HOME = {
  title: "Acme Corp Training",
  tagline: "Onboarding and compliance training for Acme employees.",
  body: "Sign in with your Acme account to see your assigned courses.\n",
};

type Status = "draft" | "published" | "hidden";
type Interval = "day" | "week" | "month" | "year";

export interface SeedPlan {
  id: string;
  slug: string;
  name: string;
  description: string;
  planType: "recurring" | "fixed_date" | "specific_length" | "lifetime";
  interval: Interval | null;
  intervalCount: number;
  price: string;
  currency: string;
  lengthCount: number | null;
  lengthInterval: Interval | null;
  fixedEndAt: string | null;
  status: Status;
  position: number;
}

export interface SeedCourse {
  id: string;
  slug: string;
  title: string;
  summary: string;
  body: string;
  level: string | null;
  durationMinutes: number | null;
  price: string | null;
  currency: string | null;
  categoryId: string | null;
  lecturerIds: string[];
  status: Status;
  position: number;
  publishedAt: string | null;
}

export const CATEGORIES = [
  { id: id(5, 1), slug: "data", name: "Data & Analytics", description: "SQL, Python and the habits of careful analysis.", position: 1 },
  { id: id(5, 2), slug: "creative", name: "Creative Skills", description: "Photography and writing for the web.", position: 2 },
  { id: id(5, 3), slug: "career", name: "Career", description: "Interviews, portfolios and freelancing.", position: 3 },
];

export const LECTURERS = [
  {
    id: id(6, 1),
    slug: "tomas-rivera",
    name: "Tomás Rivera",
    headline: "Analytics engineer, 12 years of SQL in production",
    bio: "Tomás builds data platforms for retail companies and has taught SQL to more than 4,000 students.\n\nHe cares about **readable queries** and tests for data pipelines.",
    avatarUrl: "https://avatars.schoolhouse.test/tomas-rivera.png",
    userId: DEMO_IDS.users.teacher,
    position: 1,
  },
  {
    id: id(6, 2),
    slug: "mei-ling-wu",
    name: "Mei-Ling Wu",
    headline: "Product photographer and studio owner",
    bio: "Mei-Ling runs a small studio photographing products for independent brands.\n\nShe teaches lighting on a budget.",
    avatarUrl: null,
    userId: null,
    position: 2,
  },
  {
    id: id(6, 3),
    slug: "grace-adeyemi",
    name: "Grace Adeyemi",
    headline: "Editor and content strategist",
    bio: "Grace has edited documentation and marketing sites for SaaS companies for a decade.",
    avatarUrl: null,
    userId: null,
    position: 3,
  },
];

export const COURSES: SeedCourse[] = [
  {
    id: id(7, 1),
    slug: "intro-to-sql",
    title: "Intro to SQL",
    summary: "Query real datasets with SELECT, JOIN and GROUP BY in two weeks.",
    body: `## What you will learn

1. Reading tables and filtering rows with \`WHERE\`
2. Joining tables without duplicating rows
3. Aggregating with \`GROUP BY\` and \`HAVING\`

\`\`\`sql
SELECT country, count(*) AS customers
FROM customers
GROUP BY country
ORDER BY customers DESC;
\`\`\`

## Who it is for

Analysts, marketers and product managers who want answers without waiting for a data team.
`,
    level: "beginner",
    durationMinutes: 360,
    price: "49.00",
    currency: "USD",
    categoryId: id(5, 1),
    lecturerIds: [id(6, 1)],
    status: "published" as const,
    position: 1,
    publishedAt: "2026-01-15T09:00:00Z",
  },
  {
    id: id(7, 2),
    slug: "python-for-data-analysis",
    title: "Python for Data Analysis",
    summary: "pandas, notebooks and charts: from CSV to a report you can share.",
    body: `## Course outline

- Loading CSV and Excel files with **pandas**
- Cleaning messy columns
- Plotting with matplotlib
- Writing a reproducible notebook

> Prerequisite: [Intro to SQL](/courses/intro-to-sql) or equivalent experience.
`,
    level: "intermediate",
    durationMinutes: 540,
    price: "89.00",
    currency: "USD",
    categoryId: id(5, 1),
    lecturerIds: [id(6, 1)],
    status: "published" as const,
    position: 2,
    publishedAt: "2026-02-20T09:00:00Z",
  },
  {
    id: id(7, 3),
    slug: "product-photography-basics",
    title: "Product Photography Basics",
    summary: "Shoot clean product photos at home with one light and a phone.",
    body: `## You will need

- A phone or any camera
- A window or one LED panel
- White foam board

## Lessons

1. Light direction and soft shadows
2. Backgrounds that sell
3. Editing for a consistent catalog
`,
    level: "beginner",
    durationMinutes: 240,
    price: "39.00",
    currency: "USD",
    categoryId: id(5, 2),
    lecturerIds: [id(6, 2)],
    status: "published" as const,
    position: 3,
    publishedAt: "2026-03-05T09:00:00Z",
  },
  {
    id: id(7, 4),
    slug: "writing-for-the-web",
    title: "Writing for the Web",
    summary: "Clear, scannable writing for product pages, docs and newsletters.",
    body: `## Principles

- Lead with the answer
- One idea per paragraph
- Write headings a reader can skim

Includes three graded assignments with written feedback from *Grace Adeyemi*.
`,
    level: "all levels",
    durationMinutes: 300,
    price: "59.00",
    currency: "USD",
    categoryId: id(5, 2),
    lecturerIds: [id(6, 3), id(6, 2)],
    status: "published" as const,
    position: 4,
    publishedAt: "2026-04-10T09:00:00Z",
  },
  {
    id: id(7, 5),
    slug: "advanced-dashboards",
    title: "Advanced Dashboards",
    summary: "Not yet released.",
    body: "Draft outline.\n",
    level: "advanced",
    durationMinutes: 400,
    price: "129.00",
    currency: "USD",
    categoryId: id(5, 1),
    lecturerIds: [id(6, 1)],
    status: "draft" as const,
    position: 5,
    publishedAt: null,
  },
];

export const POSTS = [
  {
    id: id(8, 1),
    slug: "five-sql-mistakes",
    title: "Five SQL mistakes that double-count your revenue",
    excerpt: "Fan-out joins, missing DISTINCT and other ways totals go wrong.",
    body: "## 1. Joining before aggregating\n\nWhen one order has many line items, joining orders to line items and then summing order totals counts each order once per item.\n\n## 2. Forgetting NULLs in COUNT\n\n`count(column)` skips NULLs; `count(*)` does not.\n",
    authorId: id(6, 1),
    categoryId: id(5, 1),
    status: "published" as const,
    publishedAt: "2026-05-02T08:00:00Z",
  },
  {
    id: id(8, 2),
    slug: "window-light-setup",
    title: "A window-light setup for product photos",
    excerpt: "The cheapest studio is the one you already have.",
    body: "Place the product at a 45° angle to a north-facing window and bounce light back with white foam board.\n",
    authorId: id(6, 2),
    categoryId: id(5, 2),
    status: "published" as const,
    publishedAt: "2026-06-11T08:00:00Z",
  },
  {
    id: id(8, 3),
    slug: "spring-schedule",
    title: "Our spring course schedule",
    excerpt: "New cohorts start every month.",
    body: "Cohorts for **Intro to SQL** start on the first Monday of each month. Office hours are on Thursdays.\n",
    authorId: null,
    categoryId: null,
    status: "published" as const,
    publishedAt: "2026-03-01T08:00:00Z",
  },
  {
    id: id(8, 4),
    slug: "unannounced-partnership",
    title: "Unannounced partnership",
    excerpt: "Draft",
    body: "Not public yet.\n",
    authorId: null,
    categoryId: null,
    status: "draft" as const,
    publishedAt: null,
  },
];

export const EVENTS = [
  {
    id: id(9, 1),
    slug: "sql-office-hours-december",
    title: "SQL office hours (December)",
    summary: "Bring your queries; we debug them live.",
    body: "A live session on video. Questions can be submitted in advance through the course forum.\n",
    startsAt: "2026-12-10T17:00:00Z",
    endsAt: "2026-12-10T18:30:00Z",
    timezone: "America/New_York",
    location: null,
    onlineUrl: "https://meet.schoolhouse.test/sql-office-hours",
    price: null,
    currency: null,
    categoryId: id(5, 1),
    status: "published" as const,
  },
  {
    id: id(9, 2),
    slug: "studio-lighting-workshop",
    title: "Studio lighting workshop",
    summary: "A hands-on afternoon in Mei-Ling's studio in Lisbon.",
    body: "Limited to 12 participants. Cameras are provided.\n",
    startsAt: "2027-01-16T14:00:00Z",
    endsAt: "2027-01-16T18:00:00Z",
    timezone: "Europe/Lisbon",
    location: "Rua das Flores 28, Lisbon",
    onlineUrl: null,
    price: "120.00",
    currency: "EUR",
    categoryId: id(5, 2),
    status: "published" as const,
  },
  {
    id: id(9, 3),
    slug: "portfolio-review-night",
    title: "Portfolio review night",
    summary: "Five-minute reviews of your portfolio by hiring managers.",
    body: "Sign up for a slot after registering.\n",
    startsAt: "2027-02-04T09:00:00Z",
    endsAt: "2027-02-04T11:00:00Z",
    timezone: "Asia/Tokyo",
    location: null,
    onlineUrl: "https://meet.schoolhouse.test/portfolio-night",
    price: "0.00",
    currency: "USD",
    categoryId: id(5, 3),
    status: "published" as const,
  },
];

export const DOWNLOADS = [
  {
    id: id(10, 1),
    slug: "sql-cheat-sheet",
    title: "SQL cheat sheet",
    summary: "Two pages: every clause in the order the database runs it.",
    body: "A printable PDF covering SELECT, JOIN types, window functions and common date functions.\n",
    price: "0.00",
    currency: "USD",
    fileName: "sql-cheat-sheet.pdf",
    fileSizeBytes: 482_113,
    categoryId: id(5, 1),
    status: "published" as const,
  },
  {
    id: id(10, 2),
    slug: "lightroom-presets",
    title: "Catalog Lightroom presets",
    summary: "Twelve presets for white-background product photos.",
    body: "Works with Lightroom Classic and Lightroom mobile.\n",
    price: "19.00",
    currency: "USD",
    fileName: "catalog-presets.zip",
    fileSizeBytes: 2_304_551,
    categoryId: id(5, 2),
    status: "published" as const,
  },
  {
    id: id(10, 3),
    slug: "style-guide-template",
    title: "Style guide template",
    summary: "A one-page editorial style guide to adapt for your team.",
    body: "Covers voice, capitalization, numbers and link text.\n",
    price: "9.50",
    currency: "USD",
    fileName: "style-guide-template.docx",
    fileSizeBytes: 88_412,
    categoryId: id(5, 2),
    status: "published" as const,
  },
];

export const FAQ = [
  { id: id(11, 1), question: "How long do I keep access to a course?", answer: "For as long as your membership is active. With the **Lifetime Access** plan, forever.", position: 1 },
  { id: id(11, 2), question: "Can I cancel my membership?", answer: "Yes. Monthly memberships can be cancelled at any time and stay active until the end of the paid period.", position: 2 },
  { id: id(11, 3), question: "Do you offer certificates?", answer: "Every completed course includes a certificate with a verification link.", position: 3 },
  { id: id(11, 4), question: "Is there a team plan?", answer: "Yes, contact us for team pricing from five seats.", position: 4 },
  { id: id(11, 5), question: "Which payment methods do you accept?", answer: "Cards, Apple Pay and Google Pay. Invoices are available for annual plans.", position: 5 },
];

export const PLANS: SeedPlan[] = [
  {
    id: DEMO_IDS.plans.monthly,
    slug: "monthly",
    name: "Monthly Membership",
    description: "Every course and live session, billed monthly. Cancel any time.",
    planType: "recurring" as const,
    interval: "month" as const,
    intervalCount: 1,
    price: "29.00",
    currency: "USD",
    lengthCount: null,
    lengthInterval: null,
    fixedEndAt: null,
    status: "published" as const,
    position: 1,
  },
  {
    id: DEMO_IDS.plans.summerCohort,
    slug: "summer-cohort-2027",
    name: "Summer Cohort 2027",
    description: "Access to all courses until the cohort ends on 1 September 2027.",
    planType: "fixed_date" as const,
    interval: null,
    intervalCount: 1,
    price: "199.00",
    currency: "USD",
    lengthCount: null,
    lengthInterval: null,
    fixedEndAt: "2027-09-01T00:00:00Z",
    status: "published" as const,
    position: 2,
  },
  {
    id: DEMO_IDS.plans.bootcamp,
    slug: "bootcamp-90-days",
    name: "90-Day Bootcamp Pass",
    description: "Ninety days of full access from the day you join.",
    planType: "specific_length" as const,
    interval: null,
    intervalCount: 1,
    price: "149.00",
    currency: "USD",
    lengthCount: 90,
    lengthInterval: "day" as const,
    fixedEndAt: null,
    status: "published" as const,
    position: 3,
  },
  {
    id: DEMO_IDS.plans.lifetime,
    slug: "lifetime",
    name: "Lifetime Access",
    description: "One payment, every current and future course, forever.",
    planType: "lifetime" as const,
    interval: null,
    intervalCount: 1,
    price: "499.00",
    currency: "USD",
    lengthCount: null,
    lengthInterval: null,
    fixedEndAt: null,
    status: "published" as const,
    position: 4,
  },
  {
    id: DEMO_IDS.plans.legacyAnnual,
    slug: "legacy-annual",
    name: "Legacy Annual",
    description: "Retired plan kept for existing members.",
    planType: "recurring" as const,
    interval: "year" as const,
    intervalCount: 1,
    price: "249.00",
    currency: "USD",
    lengthCount: null,
    lengthInterval: null,
    fixedEndAt: null,
    status: "hidden" as const,
    position: 5,
  },
];

export const ACME_PLANS: SeedPlan[] = [
  {
    id: DEMO_IDS.plans.acmeAnnual,
    slug: "employee-annual",
    name: "Employee Annual Access",
    description: "Annual training access for Acme employees.",
    planType: "recurring" as const,
    interval: "year" as const,
    intervalCount: 1,
    price: "0.00",
    currency: "USD",
    lengthCount: null,
    lengthInterval: null,
    fixedEndAt: null,
    status: "published" as const,
    position: 1,
  },
];

export const ACME_COURSES: SeedCourse[] = [
  {
    id: id(7, 101),
    slug: "security-awareness",
    title: "Security Awareness 2026",
    summary: "Phishing, passwords and reporting incidents.",
    body: "## Modules\n\n1. Recognising phishing\n2. Password managers\n3. Reporting an incident\n",
    level: "all levels",
    durationMinutes: 45,
    price: null,
    currency: null,
    categoryId: null,
    lecturerIds: [],
    status: "published" as const,
    position: 1,
    publishedAt: "2026-01-05T09:00:00Z",
  },
];

// OAuth: demo clients and the vendor platforms allowed to register.
export const DEMO_OAUTH_CLIENTS = [
  {
    id: id(12, 1),
    clientId: "demo-public-app",
    name: "Demo Public App",
    secret: null,
    redirectUris: ["http://localhost:3000/oauth/callback", "http://127.0.0.1/callback"],
    scope: "openid profile email offline_access courses:read students:read subscriptions:read subscriptions:write enrollments:write",
    tokenEndpointAuthMethod: "none",
  },
  {
    id: id(12, 2),
    clientId: "demo-confidential-app",
    name: "Demo Reporting Service",
    secret: "demo-confidential-secret-dev-only",
    redirectUris: ["https://reports.schoolhouse.test/oauth/callback"],
    scope: "openid profile email offline_access courses:read students:read",
    tokenEndpointAuthMethod: "client_secret_post",
  },
  {
    id: id(12, 3),
    clientId: "schoolhouse-mcp",
    name: "Schoolhouse MCP",
    secret: null,
    redirectUris: [
      "http://127.0.0.1/callback",
      "http://localhost/callback",
      "https://claude.ai/api/mcp/auth_callback",
      "https://chatgpt.com/connector_platform_oauth_redirect",
    ],
    scope: "openid profile email offline_access courses:read students:read subscriptions:read subscriptions:write enrollments:write",
    tokenEndpointAuthMethod: "none",
  },
];

export const VENDOR_PLATFORMS = [
  {
    id: id(13, 1),
    name: "Zapier",
    allowedRedirectUris: ["https://zapier.com/dashboard/auth/oauth/return/SchoolhouseCLIAPI/"],
    scope: "openid profile email offline_access courses:read students:read",
  },
  {
    id: id(13, 2),
    name: "Make",
    allowedRedirectUris: ["https://www.integromat.com/oauth/cb/schoolhouse"],
    scope: "openid profile email offline_access courses:read",
  },
];
