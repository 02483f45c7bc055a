import type { ConsolePermission } from "./permissions";

export const CONSOLE_PATH = "/manage";

export interface ConsoleNavItem {
  href: string;
  label: string;
  /** The permission the page needs: the nav shows a member only the pages they may open. */
  permission: ConsolePermission;
}

/**
 * The console's navigation, in order: one entry per page that exists. A new console page adds its
 * entry here (and its path to CONSOLE_PAGES below, which the proxy's gate reads).
 */
export const CONSOLE_NAV: ConsoleNavItem[] = [
  { href: CONSOLE_PATH, label: "Overview", permission: "overview" },
  { href: `${CONSOLE_PATH}/members`, label: "Members", permission: "members:read" },
  { href: `${CONSOLE_PATH}/courses`, label: "Courses", permission: "courses:read_own" },
  { href: `${CONSOLE_PATH}/keys`, label: "API keys", permission: "keys:manage" },
  { href: `${CONSOLE_PATH}/webhooks`, label: "Webhooks", permission: "webhooks:manage" },
  { href: `${CONSOLE_PATH}/apps`, label: "Apps", permission: "apps:manage" },
  { href: `${CONSOLE_PATH}/audit`, label: "Audit log", permission: "audit:read" },
];

/** The permission a console path needs: its longest matching nav entry (sub-pages inherit it). */
export function permissionForPath(pathname: string): ConsolePermission | null {
  let best: ConsoleNavItem | null = null;
  for (const item of CONSOLE_NAV) {
    const match = item.href === CONSOLE_PATH ? pathname === CONSOLE_PATH || pathname === `${CONSOLE_PATH}/` : pathname === item.href || pathname.startsWith(`${item.href}/`);
    if (match && (!best || item.href.length > best.href.length)) best = item;
  }
  return best?.permission ?? null;
}

export const isConsolePath = (pathname: string) => pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
