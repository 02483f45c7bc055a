/** One problem in a content folder: the file (relative to the folder), the field and the line. */
export interface ContentProblem {
  file: string;
  line: number;
  field: string | null;
  message: string;
}

export function formatProblem(p: ContentProblem): string {
  return `${p.file}:${p.line}: ${p.field ? `${p.field}: ` : ""}${p.message}`;
}

/** A content folder that cannot be imported; nothing was written. Lists every problem found. */
export class ContentError extends Error {
  override name = "ContentError";
  constructor(readonly problems: ContentProblem[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? "" : "s"} in the content folder, nothing was changed:\n` +
        problems.map((p) => `  ${formatProblem(p)}`).join("\n"),
    );
  }
}
