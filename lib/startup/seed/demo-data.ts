// The demo schools' members, keys and OAuth clients (their content lives in content/). Ids are fixed
// so README, tests and curl examples can name them; content ids are fixed in the content files.

import { DEMO_IDS, demoId as id } from "../../demo-ids";

export { DEMO_IDS };

export const DEMO_USER_EMAIL_DOMAIN = "schoolhouse.test";
export {
  ACME_API_KEY,
  DEFAULT_DEMO_API_KEY,
  DEFAULT_DEMO_API_KEY_NO_PERMISSIONS,
  DEFAULT_DEMO_PASSWORD,
} from "./demo-credentials";

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

/**
 * The demo schools: identity only. Their content (name, home page, plans, courses, …) is written
 * as content folders under content/, imported by the seed exactly as `npm run school -- import`
 * does, so the demo shows how a school is written.
 */
export const DEMO_SCHOOLS = [
  { id: DEMO_IDS.school, subdomain: "demo", contentDir: "content/demo" },
  { id: DEMO_IDS.acmeSchool, subdomain: "acme-training", contentDir: "content/acme-training" },
] as const;

// OAuth: demo clients and the vendor platforms allowed to register.
export const DEMO_OAUTH_CLIENTS = [
  {
    id: id(12, 1),
    clientId: "demo-public-app",
    name: "Demo Public App",
    confidential: false,
    redirectUris: ["http://localhost:3000/oauth/callback", "http://127.0.0.1/callback"],
    // RP-Initiated Logout (issue 25): where the demo app may send a member after signing out.
    postLogoutRedirectUris: ["http://localhost:3000/", "http://127.0.0.1/signed-out"],
    scope: "openid profile email offline_access courses:read students:read subscriptions:read subscriptions:write enrollments:write webhooks:manage",
    tokenEndpointAuthMethod: "none",
  },
  {
    id: id(12, 2),
    clientId: "demo-confidential-app",
    name: "Demo Reporting Service",
    // The secret comes from the seed's DemoCredentials (README value or random).
    confidential: true,
    redirectUris: ["https://reports.schoolhouse.test/oauth/callback"],
    scope: "openid profile email offline_access courses:read students:read",
    tokenEndpointAuthMethod: "client_secret_post",
  },
  {
    id: id(12, 3),
    clientId: "schoolhouse-mcp",
    name: "Schoolhouse MCP",
    confidential: false,
    redirectUris: [
      "http://127.0.0.1/callback",
      "http://localhost/callback",
      "https://claude.ai/api/mcp/auth_callback",
      "https://chatgpt.com/connector_platform_oauth_redirect",
    ],
    scope: "openid profile email offline_access courses:read students:read subscriptions:read subscriptions:write enrollments:write webhooks:manage",
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
