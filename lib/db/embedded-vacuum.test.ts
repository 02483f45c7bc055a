import { describe, expect, it } from "vitest";
import { maintenanceFor } from "./embedded-vacuum";

describe("maintenanceFor (autovacuum's defaults)", () => {
  it("vacuums once dead rows pass 50 + 20% of the live ones", () => {
    expect(maintenanceFor({ table: "t", live: 1000, dead: 250, modifiedSinceAnalyze: 0 })).toBeNull();
    expect(maintenanceFor({ table: "t", live: 1000, dead: 251, modifiedSinceAnalyze: 0 })).toBe("vacuum");
    expect(maintenanceFor({ table: "t", live: 0, dead: 51, modifiedSinceAnalyze: 0 })).toBe("vacuum");
  });

  it("analyzes once changes since the last analysis pass 50 + 10% of the live rows", () => {
    expect(maintenanceFor({ table: "t", live: 1000, dead: 0, modifiedSinceAnalyze: 150 })).toBeNull();
    expect(maintenanceFor({ table: "t", live: 1000, dead: 0, modifiedSinceAnalyze: 151 })).toBe("analyze");
  });

  it("a table due for both is vacuumed (a vacuum here analyzes too)", () => {
    expect(maintenanceFor({ table: "t", live: 100, dead: 500, modifiedSinceAnalyze: 500 })).toBe("vacuum");
  });

  it("a quiet table is left alone", () => {
    expect(maintenanceFor({ table: "t", live: 0, dead: 0, modifiedSinceAnalyze: 0 })).toBeNull();
    expect(maintenanceFor({ table: "t", live: 10, dead: 50, modifiedSinceAnalyze: 50 })).toBeNull();
  });
});
