// The llms.txt format as llmstxt.org's reference parser reads it (llms_txt.miniparse), restated in
// TypeScript: the text before the first `##` line holds `# title`, an optional `> summary` and
// free text; each `##` line starts a section whose every non-blank line must hold
// `-[ ]*[title](url)` with a title free of `]` and a URL free of `)`, optionally followed by
// `: description`. A line that does not match makes the reference parser fail on the whole file.

export interface ReferenceLink {
  title: string;
  url: string;
  desc: string | null;
}

const LINK = /-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<desc>.*))?/;

export function parseLlmsTxtReference(text: string): { title: string; summary: string | null; sections: Record<string, ReferenceLink[]> } {
  const parts = text.split(/^##\s*(.*?)$/m);
  const start = parts[0]!;
  const sections: Record<string, ReferenceLink[]> = {};
  for (let i = 1; i < parts.length; i += 2) {
    sections[parts[i]!] = parts[i + 1]!
      .trim()
      .split(/\n+/)
      .filter((l) => l.trim())
      .map((line) => {
        const m = LINK.exec(line);
        if (!m) throw new Error(`the reference parser fails on: ${line}`);
        return { title: m.groups!.title!, url: m.groups!.url!, desc: m.groups!.desc ?? null };
      });
  }
  const head = /^#\s*(?<title>.+?$)\n+(?:^>\s*(?<summary>.+?$)$)?\n+(?<info>.*)/ms.exec(start.trim());
  if (!head) throw new Error("the reference parser finds no title");
  return { title: head.groups!.title!, summary: head.groups!.summary ?? null, sections };
}
