import { parseArgs, type ParseArgsConfig } from "node:util";

export type Flags = NonNullable<ParseArgsConfig["options"]>;

/** `<command> [positionals] [--flags]` as parsed from the process's arguments. */
export type CommandLine<F extends Flags> = { command: string | undefined } & ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: F }>
>;

// An id the service made can begin with "-" (a signing key's kid is a base64url thumbprint: one in
// 32 does), and an operator pastes it as it was printed. Only declared short flags are options, so
// any other single-dash word is a positional; "--words" stay strict, so a mistyped flag still fails.
const PLACEHOLDER = "\u0000";

/** Parses `args` (after the command) against `flags`; unknown `--flags` throw parseArgs's TypeError. */
export function parseCommandLine<const F extends Flags>(command: string | undefined, args: string[], flags: F): CommandLine<F> {
  const shorts = new Set(Object.values(flags).flatMap((f) => (f.short ? [f.short] : [])));
  const end = args.indexOf("--");
  const literal: string[] = [];
  const masked = args.map((a, i) => {
    if ((end >= 0 && i >= end) || !/^-[^-]/.test(a) || shorts.has(a[1]!)) return a;
    literal.push(a);
    return `${PLACEHOLDER}${literal.length - 1}`;
  });
  const parsed = parseArgs({ args: masked, allowPositionals: true, options: flags });
  const unmask = (v: string) => (v.startsWith(PLACEHOLDER) ? literal[Number(v.slice(1))]! : v);
  const values = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, typeof v === "string" ? unmask(v) : v]));
  return { command, values, positionals: parsed.positionals.map(unmask) } as CommandLine<F>;
}
