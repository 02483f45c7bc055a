// Named prepared statements on PGlite, the embedded counterpart of pg's `{ name, text }` queries.
//
// `pglite.query()` sends an unnamed Parse every call, so Postgres parses, analyses and plans the
// statement every time. For the hot statements' large data-modifying CTEs that was most of a
// request's cost on the embedded database (docs/benchmarks.md, "Writes": the refresh statement
// 0.98 of 1.25 ms). A named statement is parsed once per PGlite instance and from then on only bound
// and executed, as pg does for each pooled connection.
//
// PGlite's public `execProtocol` takes no lock, so the statement runs inside `transaction()` (the
// lock every `query()` and Prisma's adapter take, so it never lands inside somebody else's open
// transaction) and `runExclusive()` (the protocol lock). Parameters are serialized and rows parsed
// exactly as `query()` does: by the types Postgres describes, with the instance's own serializers
// and parsers.
import { parse, protocol, type PGlite } from "@electric-sql/pglite";

type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

interface PreparedStatement {
  text: string;
  paramTypes: number[];
}

const preparedBy = new WeakMap<PGlite, Map<string, PreparedStatement>>();

/** The statements prepared on this instance (tests read it to prove the plan is reused). */
export function preparedStatementNames(pglite: PGlite): string[] {
  return [...(preparedBy.get(pglite)?.keys() ?? [])];
}

async function send(pglite: PGlite, message: Uint8Array, into: BackendMessage[]): Promise<BackendMessage[]> {
  const { messages } = await pglite.execProtocol(message, { syncToFs: false });
  into.push(...messages);
  return messages;
}

async function prepare(pglite: PGlite, name: string, text: string, into: BackendMessage[]): Promise<PreparedStatement> {
  const { serialize } = protocol;
  // Closing first makes a statement left half-prepared by a failed earlier attempt harmless.
  await send(pglite, serialize.close({ type: "S", name }), into);
  await send(pglite, serialize.parse({ name, text, types: [] }), into);
  const described = await send(pglite, serialize.describe({ type: "S", name }), into);
  const parameters = described.find((m) => m.name === "parameterDescription") as { dataTypeIDs: number[] } | undefined;
  return { text, paramTypes: parameters?.dataTypeIDs ?? [] };
}

function serializeParams(pglite: PGlite, params: unknown[], types: number[]): (string | null)[] {
  return params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[types[i]!];
    return serializer ? serializer(value) : String(value);
  });
}

export async function pgliteQueryNamed<T>(pglite: PGlite, name: string, text: string, params: unknown[]): Promise<T[]> {
  const { serialize } = protocol;
  return pglite.transaction(() =>
    pglite.runExclusive(async () => {
      let statements = preparedBy.get(pglite);
      if (!statements) preparedBy.set(pglite, (statements = new Map()));
      const messages: BackendMessage[] = [];
      try {
        let statement = statements.get(name);
        if (statement && statement.text !== text) {
          throw new Error(`the prepared statement "${name}" was prepared with another text`);
        }
        if (!statement) {
          statement = await prepare(pglite, name, text, messages);
          statements.set(name, statement);
        }
        const values = serializeParams(pglite, params, statement.paramTypes);
        await send(pglite, serialize.bind({ statement: name, values }), messages);
        await send(pglite, serialize.describe({ type: "P" }), messages);
        await send(pglite, serialize.execute({}), messages);
      } finally {
        await send(pglite, serialize.sync(), messages);
      }
      const [result] = parse.parseResults(messages, pglite.parsers);
      return (result?.rows ?? []) as T[];
    }),
  );
}
