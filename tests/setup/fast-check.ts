// Every Vitest project's first setup file (vitest.config.ts). fast-check 4 sizes an array, string or
// object by its `size` (default "small": about 10 items), whatever its `maxLength` says, so a
// property declaring `maxLength: 300` never met more than 10 characters. With this, a declared
// upper bound is the generated one (`size: "max"`); arbitraries without a bound keep the small
// default, and an explicit `size` still wins. docs/decisions.md, "The hostile-input fuzz suite".
// tests/unit/fast-check-setup.test.ts fails if a project loses this file.
import fc from "fast-check";

fc.configureGlobal({ ...fc.readConfigureGlobal(), defaultSizeToMaxWhenMaxSpecified: true });
