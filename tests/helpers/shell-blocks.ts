// The shell blocks of a markdown file, as a reader would copy them: every ```sh / ```bash fence,
// with the line it starts on, the heading it sits under and the `<!-- runs-in: <where>: <why> -->`
// marker on the line above it, if any. A fence that is never closed is an error here too (markdownlint is the
// other net: tests/unit/docs-markdown.test.ts).

export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest heading above the block. */
  heading: string;
  code: string;
  /** What runs the block instead of the docs suite (`<!-- runs-in: ci -->`), if it is marked. */
  runsIn?: string;
  /** The marker's one-line reason (`<!-- runs-in: production: needs the production database -->`). */
  reason?: string;
}

const OPEN = /^ {0,3}(`{3,}|~{3,})\s*([\w-]*)/;
const SHELL = new Set(["sh", "bash", "shell"]);
const MARKER = /^<!--\s*runs-in:\s*([\w./-]+)(?:\s*:\s*(.+?))?\s*-->$/;

export function shellBlocks(markdown: string, file: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const blocks: ShellBlock[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = OPEN.exec(line);
    if (!open) {
      if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, "");
      continue;
    }
    const fence = open[1]!;
    const indent = line.length - line.trimStart().length;
    const start = i;
    const body: string[] = [];
    // A closing fence: the same character, at least as long, nothing after it (CommonMark).
    const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    for (i++; i < lines.length && !close.test(lines[i]!); i++) body.push(lines[i]!.slice(Math.min(indent, lines[i]!.length - lines[i]!.trimStart().length)));
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: this code fence is never closed`);
    if (!SHELL.has(open[2]!)) continue;
    const above = lines.slice(0, start).reverse().find((l) => l.trim() !== "")?.trim() ?? "";
    const marker = MARKER.exec(above);
    blocks.push({
      line: start + 1,
      heading,
      code: body.join("\n"),
      ...(marker ? { runsIn: marker[1] } : {}),
      ...(marker?.[2] ? { reason: marker[2] } : {}),
    });
  }
  return blocks;
}
