import { afterEach, describe, expect, it } from "vitest";
import { chromiumPath } from "../e2e/chromium";

describe("chromiumPath", () => {
  afterEach(() => {
    delete process.env.CHROMIUM_PATH;
  });

  it("fails with instructions when CHROMIUM_PATH points nowhere", () => {
    process.env.CHROMIUM_PATH = "/nonexistent/chromium";
    expect(() => chromiumPath()).toThrow("CHROMIUM_PATH=/nonexistent/chromium does not exist");
  });

  it("accepts an existing binary", () => {
    process.env.CHROMIUM_PATH = process.execPath;
    expect(chromiumPath()).toBe(process.execPath);
  });
});
