// The bench's progress lines go to stderr; stdout carries the results.
export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
