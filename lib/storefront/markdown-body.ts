// School-written markdown bodies (course bodies, posts, FAQ answers, lecturer bios) keep their
// markdown, minus what must never reach a page or a twin: raw HTML (and with it any event handler),
// links and images whose URL is not allowed by safeHref, and a second H1 (the title is the
// document's only one). The same cleaned source feeds the HTML page and the markdown twin, so both
// forms stay "the same markdown".
import type { Nodes, Parents } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { inlineText } from "./markdown-text";
import { safeHref } from "./safe-url";

interface Edit {
  start: number;
  end: number;
  text: string;
}

const span = (n: Nodes) => ({ start: n.position?.start.offset ?? 0, end: n.position?.end.offset ?? 0 });

function editsOf(source: string): Edit[] {
  const tree = fromMarkdown(source);
  const edits: Edit[] = [];
  const visit = (node: Nodes, depth: number) => {
    const { start, end } = span(node);
    switch (node.type) {
      case "html":
        edits.push({ start, end, text: "" });
        return;
      case "link":
        if (!safeHref(node.url)) {
          // The label stays as text (the HTML page shows it in a <span>).
          const first = node.children[0];
          const last = node.children.at(-1);
          const label = first && last ? source.slice(span(first).start, span(last).end) : "";
          edits.push({ start, end, text: label });
          return;
        }
        break;
      case "image":
        if (!safeHref(node.url)) {
          edits.push({ start, end, text: "" });
          return;
        }
        break;
      case "definition":
        if (!safeHref(node.url)) {
          edits.push({ start, end, text: "" });
          return;
        }
        break;
      case "heading":
        if (node.depth === 1) edits.push(demote(source, start, end));
        break;
      case "code":
        // Only a fence of the root can run on into what follows the body: inside a list or a quote
        // the container's end closes it (and a fence added there would open a new one).
        if (depth === 1 && end >= source.trimEnd().length && isUnclosedFence(source.slice(start, end))) {
          const fence = /^[ \t]*(`{3,}|~{3,})/.exec(source.slice(start))![1]!;
          edits.push({ start: end, end, text: `\n${fence}` });
        }
        return;
    }
    if ("children" in node) for (const child of (node as Parents).children) visit(child, depth + 1);
  };
  visit(tree, 0);
  return edits;
}

/** ATX `# x` becomes `## x`; a setext `===` underline becomes `---` (same length). */
function demote(source: string, start: number, end: number): Edit {
  const text = source.slice(start, end);
  const atx = /^[ \t]*#/.exec(text);
  if (atx) return { start: start + atx[0].length - 1, end: start + atx[0].length - 1, text: "#" };
  const lastLine = text.lastIndexOf("\n") + 1;
  return { start: start + lastLine, end, text: text.slice(lastLine).replace(/=/g, "-") };
}

/** A fenced code block left open runs to the end of the body, where it would swallow what follows. */
function isUnclosedFence(text: string): boolean {
  const open = /^[ \t]*(`{3,}|~{3,})/.exec(text);
  if (!open) return false; // indented code
  const lines = text.split("\n");
  if (lines.length < 2) return true;
  const closing = new RegExp(`^ {0,3}\\${open[1]![0]}{${open[1]!.length},}[ \\t]*$`);
  return !closing.test(lines.at(-1)!);
}

function apply(source: string, edits: Edit[]): string {
  // Outermost first; an edit inside another one waits for the next pass.
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Edit[] = [];
  for (const e of sorted) {
    const prev = kept.at(-1);
    if (prev && e.start < prev.end) continue;
    kept.push(e);
  }
  let out = "";
  let at = 0;
  for (const e of kept) {
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}

const MAX_PASSES = 8;

/**
 * The body with raw HTML, unsafe links and images, and H1s removed or demoted; everything else is
 * left byte for byte. Removing a piece can join its neighbours into a new one ("<<b>script>"), so
 * the source is parsed again until nothing is left to remove; a body that still does not settle is
 * shown as escaped plain text, never as markup.
 */
export function sanitizeMarkdown(source: string): string {
  // Leading blank lines and trailing whitespace go; leading spaces stay (they can make a code block).
  let text = source
    .replace(/\r\n?/g, "\n")
    .replace(/\u0000/g, "\uFFFD")
    .replace(/^(?:[ \t]*\n)+/, "")
    .trimEnd();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const edits = editsOf(text);
    if (!edits.length) return text;
    text = apply(text, edits).replace(/^(?:[ \t]*\n)+/, "").trimEnd();
  }
  return text
    .split(/\n{2,}/)
    .map((p) => inlineText(p, { lineStart: true }))
    .filter(Boolean)
    .join("\n\n");
}
