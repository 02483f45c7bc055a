// Up to two initials of a name ("Tomás Rivera" → "TR"), the fallback of a missing picture. A plain module, not
// the client component's: the server frame calls it too (a client module's function cannot run there).
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = (words.length > 1 ? [words[0]!, words[words.length - 1]!] : words).map((w) => [...w][0]!.toUpperCase());
  return letters.join("") || "?";
}
