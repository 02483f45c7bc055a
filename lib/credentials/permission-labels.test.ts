import { describe, expect, it } from "vitest";
import { ADMIN_OPERATIONS } from "./permissions";
import { PERMISSION_GROUPS, PERMISSION_LABELS, ungroupedOperations } from "./permission-labels";

describe("permission labels", () => {
  it("labels every operation, once, and shows each in exactly one group", () => {
    for (const op of ADMIN_OPERATIONS) expect(PERMISSION_LABELS[op].length, op).toBeGreaterThan(5);
    expect(new Set(Object.values(PERMISSION_LABELS)).size).toBe(ADMIN_OPERATIONS.length);
    expect(ungroupedOperations()).toEqual([]);
    const shown = PERMISSION_GROUPS.flatMap((g) => g.operations);
    expect(shown.length).toBe(new Set(shown).size);
  });
});
