// Which fields a connection's `nodes` select, so a page resolver can read what its rows will ask
// for before handing them to the executor (lib/admin-api/loaders.ts, prefetch).
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

// Per field node of a parsed document (yoga's parse cache hands the same document for the same text).
const memo = new WeakMap<FieldNode, ReadonlySet<string>>();

/**
 * The names of the fields selected on the connection's `nodes`, through fragments and inline
 * fragments. Directives are not evaluated: a field under @skip still counts, which at worst reads
 * something nobody shows.
 */
export function nodeFieldNames(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): ReadonlySet<string> {
  const single = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  const hit = single && memo.get(single);
  if (hit) return hit;
  const names = new Set<string>();
  const seen = new Set<string>();
  const fields = (set: SelectionSetNode | undefined, each: (f: FieldNode) => void) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) each(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) fields(s.selectionSet, each);
      else if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
        seen.add(s.name.value);
        const fragment: FragmentDefinitionNode | undefined = info.fragments[s.name.value];
        fields(fragment?.selectionSet, each);
        seen.delete(s.name.value);
      }
    }
  };
  for (const field of info.fieldNodes) {
    fields(field.selectionSet, (f) => {
      if (f.name.value === "nodes") fields(f.selectionSet, (n) => names.add(n.name.value));
    });
  }
  if (single) memo.set(single, names);
  return names;
}
