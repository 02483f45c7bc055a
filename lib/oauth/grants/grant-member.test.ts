import { describe, expect, it } from "vitest";
import { GRANT_MEMBER_COLUMNS, GRANT_MEMBER_NAMES, grantMemberColumnsOf, grantWithMember } from "./grant-member";

// The token endpoint's statements select GRANT_MEMBER_COLUMNS and grantWithMember maps them: the
// two must name the same columns, or a renamed one arrives undefined.
describe("the grant-and-member columns", () => {
  it("are exactly the columns grantWithMember reads", () => {
    const read = new Set<string>();
    const row = new Proxy({} as Record<string, unknown>, {
      get: (_, key) => {
        read.add(String(key));
        return key === "roles" ? ["student"] : key === "authTime" || key === "grantCreatedAt" ? new Date(0) : String(key);
      },
    });
    grantWithMember(row);
    expect([...read].sort()).toEqual([...GRANT_MEMBER_NAMES].sort());
    expect(GRANT_MEMBER_NAMES).toHaveLength(GRANT_MEMBER_COLUMNS.split(",").length);
  });

  it("are read back from a CTE under the same names", () => {
    expect(grantMemberColumnsOf("t")).toBe(GRANT_MEMBER_NAMES.map((n) => `t."${n}"`).join(", "));
    expect(GRANT_MEMBER_NAMES).toContain("schoolId");
    expect(GRANT_MEMBER_NAMES).toContain("roles");
  });
});
