import { describe, expect, it } from "vitest";
import { BUILT_IN_ROLES } from "../core/roles";
import { mayOpen } from "./access";
import { CONSOLE_NAV, CONSOLE_PATH, permissionForPath } from "./nav";
import { can, CONSOLE_PERMISSIONS, isConsoleStaff, PERMISSION_MATRIX, permissionsOf } from "./permissions";
import { needsStepUp, STEP_UP_MAX_AGE_MS } from "./step-up";
import { isSameOriginPost } from "../http/same-origin";
import { withoutNullOrigin } from "./same-origin";

describe("the staff console's permission matrix", () => {
  it("gives the owner everything", () => {
    for (const p of CONSOLE_PERMISSIONS) expect(can(["owner"], p)).toBe(true);
  });

  it("gives managers and admins members, money and the audit log, never keys, webhooks or apps", () => {
    for (const role of ["manager", "admin"]) {
      for (const p of ["overview", "members:read", "members:write", "money:refund", "courses:read_all", "courses:read_own", "audit:read"] as const) expect(can([role], p)).toBe(true);
      for (const p of ["keys:manage", "webhooks:manage", "apps:manage"] as const) expect(can([role], p)).toBe(false);
    }
  });

  it("gives teachers and teaching assistants only their courses, read-only", () => {
    for (const role of ["teacher", "teaching_assistant"]) expect([...permissionsOf([role])]).toEqual(["courses:read_own"]);
  });

  it("gives students, custom and unknown roles nothing: they are not staff", () => {
    for (const roles of [["student"], [], ["custom-role"], ["__proto__"], ["constructor"], ["Owner"]]) {
      expect(permissionsOf(roles).size).toBe(0);
      expect(isConsoleStaff(roles)).toBe(false);
    }
  });

  it("takes the union of several roles", () => {
    expect(can(["student", "teacher"], "courses:read_own")).toBe(true);
    expect(can(["teacher", "manager"], "members:write")).toBe(true);
  });

  it("has a row for every built-in role", () => {
    expect(Object.keys(PERMISSION_MATRIX).sort()).toEqual([...BUILT_IN_ROLES].sort());
  });
});

describe("console paths", () => {
  it("maps every page to its nav entry's permission, sub-pages included", () => {
    expect(permissionForPath(CONSOLE_PATH)).toBe("overview");
    expect(permissionForPath(`${CONSOLE_PATH}/members`)).toBe("members:read");
    expect(permissionForPath(`${CONSOLE_PATH}/members/0b7e0c8e-4a6b-4e55-9a49-1c1f4d7d3c11`)).toBe("members:read");
    expect(permissionForPath(`${CONSOLE_PATH}/membersx`)).toBe(null);
    for (const item of CONSOLE_NAV) expect(permissionForPath(item.href)).toBe(item.permission);
  });

  it("opens the console home to every staff role and other pages by permission", () => {
    const teacher = { permissions: permissionsOf(["teacher"]) };
    expect(mayOpen(teacher, CONSOLE_PATH)).toBe(true);
    expect(mayOpen(teacher, `${CONSOLE_PATH}/members`)).toBe(false);
    expect(mayOpen(teacher, `${CONSOLE_PATH}/courses`)).toBe(true);
    expect(mayOpen({ permissions: permissionsOf(["manager"]) }, `${CONSOLE_PATH}/members/x`)).toBe(true);
    expect(mayOpen(teacher, `${CONSOLE_PATH}/audit`)).toBe(false);
    expect(mayOpen({ permissions: permissionsOf(["admin"]) }, `${CONSOLE_PATH}/audit`)).toBe(true);
  });
});

describe("step-up", () => {
  const now = new Date("2026-11-26T10:00:00Z");
  it("needs the password again once the last entry is 10 minutes old", () => {
    expect(needsStepUp({ authenticatedAt: new Date(now.getTime() - STEP_UP_MAX_AGE_MS + 1000) }, now)).toBe(false);
    expect(needsStepUp({ authenticatedAt: new Date(now.getTime() - STEP_UP_MAX_AGE_MS) }, now)).toBe(true);
  });
});

describe("same-origin posts", () => {
  const origin = "http://demo.localhost:3000";
  it("accepts this origin and refuses any other, or none without Sec-Fetch-Site same-origin", () => {
    expect(isSameOriginPost(new Headers({ origin }), origin)).toBe(true);
    expect(isSameOriginPost(new Headers({ origin, "sec-fetch-site": "same-origin" }), origin)).toBe(true);
    expect(isSameOriginPost(new Headers({ origin: "http://evil.example" }), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({ origin: "http://evil.example", "sec-fetch-site": "same-origin" }), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({ origin, "sec-fetch-site": "cross-site" }), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({ origin: "null" }), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({}), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({ "sec-fetch-site": "same-origin" }), origin)).toBe(true);
    expect(isSameOriginPost(new Headers({ "sec-fetch-site": "cross-site" }), origin)).toBe(false);
    expect(isSameOriginPost(new Headers({ "sec-fetch-site": "same-site" }), origin)).toBe(false);
  });

  it("takes `Origin: null` with Sec-Fetch-Site same-origin (a no-referrer page's form post without JavaScript), and passes it on without the null Origin", () => {
    const nullSameOrigin = new Headers({ origin: "null", "sec-fetch-site": "same-origin", cookie: "a=b" });
    expect(isSameOriginPost(nullSameOrigin, origin)).toBe(true);
    const passed = withoutNullOrigin(nullSameOrigin, origin);
    expect(passed?.has("origin")).toBe(false);
    expect(passed?.get("cookie")).toBe("a=b");
    // A sandboxed frame of another site sends null with cross-site: refused, passed on as it came.
    expect(isSameOriginPost(new Headers({ origin: "null", "sec-fetch-site": "cross-site" }), origin)).toBe(false);
    expect(withoutNullOrigin(new Headers({ origin: "null", "sec-fetch-site": "cross-site" }), origin)).toBeNull();
    expect(withoutNullOrigin(new Headers({ origin }), origin)).toBeNull();
  });
});
