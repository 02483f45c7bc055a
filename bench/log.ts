// The bench's progress lines go to stderr; stdout carries the results. Each line carries the seconds
// since the bench started, so a slow or stuck phase shows in the log itself (the suite's smoke run
// prints this log when it fails).
const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(6);
export const log = (line: string) => process.stderr.write(`bench: ${elapsed()} s  ${line}\n`);
