import { describe, expect, it } from "vitest";
import { preferredRepresentation } from "./negotiate";

describe("preferredRepresentation", () => {
  it.each([
    // The table.
    ["text/markdown, text/html, */*", "markdown"],
    ["text/html, text/markdown", "html"],
    ["text/markdown;q=0", "html"],
    [null, "html"],
    ["", "html"],
    ["*/*", "html"],
    // q-values win over order.
    ["text/html;q=0.5, text/markdown", "markdown"],
    ["text/markdown;q=0.4, text/html;q=0.9", "html"],
    ["text/markdown;q=0.9, text/html;q=0.4", "markdown"],
    // Ties: the first listed explicit type.
    ["text/markdown;q=0.8, text/html;q=0.8", "markdown"],
    ["text/html;q=0.8, text/markdown;q=0.8", "html"],
    // Explicit types beat wildcards of the same q.
    ["*/*, text/markdown", "markdown"],
    ["text/*, text/markdown", "markdown"],
    ["text/*", "html"],
    ["text/markdown, */*;q=0.1", "markdown"],
    // q=0 refuses a type even when a wildcard would allow it.
    ["*/*, text/markdown;q=0", "html"],
    ["text/markdown;q=0, text/html;q=0", "html"],
    // Case, whitespace and parameters.
    ["TEXT/MARKDOWN", "markdown"],
    ["  text/markdown  ;  q=1 ,text/html;q=0.5", "markdown"],
    ["text/markdown; charset=utf-8", "markdown"],
    ["text/markdown;variant=GFM;q=0.9, text/html;q=0.5", "markdown"],
    ["text/html;level=1, text/markdown;q=0.9", "html"],
    // Neither type acceptable, or something else preferred: HTML, the default representation.
    ["application/json", "html"],
    ["application/json, text/markdown;q=0.5", "markdown"],
    ["image/png", "html"],
    ["garbage;;;,,", "html"],
    // A malformed q-value makes the range unusable; it is ignored.
    ["text/markdown;q=abc", "html"],
    // Only RFC 9110 qvalues count (0 to 1, at most three decimals): anything else drops its range,
    // and a range above 1 must not outweigh the valid ones (issue 29, item 14).
    ["text/markdown;q=1.001", "html"],
    ["text/markdown;q=1.5", "html"],
    ["text/markdown;q=2, text/html", "html"],
    ["text/html;q=0.9, text/markdown;q=1.5", "html"],
    ["text/markdown;q=0.0001", "html"],
    ["text/markdown;q=-1", "html"],
    ["text/markdown;q=.5", "html"],
    ["text/markdown;q=1e0", "html"],
    ["text/markdown;q=", "html"],
    ["text/markdown;q=1.000, text/html;q=0.999", "markdown"],
    ["text/markdown;Q=0.9, text/html;q=0.5", "markdown"],
    ["text/markdown;q=0.5, text/html;q=1.5", "markdown"],
  ])("%j → %s", (accept, expected) => {
    expect(preferredRepresentation(accept)).toBe(expected);
  });
});
