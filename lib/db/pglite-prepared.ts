// Named prepared statements on PGlite, the embedded counterpart of pg's `{ name, text }` queries.
//
// `pglite.query()` sends an unnamed Parse every call, so Postgres parses, analyses and plans the
// statement every time. For the hot statements' large data-modifying CTEs that was most of a
// request's cost on the embedded database (docs/benchmarks.md, "Writes": the refresh statement
// 0.98 of 1.25 ms). A named statement is parsed once per PGlite instance and from then on only bound
// and executed, as pg does for each pooled connection.
//
// PGlite's public `execProtocol` takes no lock, so the statement runs under the two locks every
// `query()` takes: the transaction lock (`_runExclusiveTransaction`, which `transaction()` and
// Prisma's adapter hold for a whole transaction, so the statement never lands inside somebody
// else's open transaction) and the protocol lock (`runExclusive()`). It is one statement in
// Postgres's implicit transaction, committed at Sync like any autocommit statement: wrapping it in
// `transaction()` added a BEGIN and a COMMIT, two more trips into the database per statement
// (docs/benchmarks.md, "The embedded database"). Bind, Execute and Sync go to PGlite as one
// buffer, which its main loop works through message by message as a client's pipelined packet, and
// the answer's rows are read here (readBackendMessages). Parameters are serialized and values parsed
// as `query()` does: by the types Postgres describes (once, when the statement is prepared), with
// the instance's own serializers and parsers.
import { messages, parse, protocol, type PGlite, type QueryOptions } from "@electric-sql/pglite";

export type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

export interface PreparedStatement {
  name: string;
  text: string;
  paramTypes: number[];
  /** The statement's result columns as Postgres described them once (null when it returns no rows). */
  rowDescription: BackendMessage | null;
}

const preparedBy = new WeakMap<PGlite, Map<string, PreparedStatement>>();

function namedStatementsOf(pglite: PGlite): Map<string, PreparedStatement> {
  let statements = preparedBy.get(pglite);
  if (!statements) preparedBy.set(pglite, (statements = new Map()));
  return statements;
}

/** The statements prepared on this instance (tests read it to prove the plan is reused). */
export function preparedStatementNames(pglite: PGlite): string[] {
  return [...(preparedBy.get(pglite)?.keys() ?? [])];
}

export async function send(pglite: PGlite, message: Uint8Array, into: BackendMessage[]): Promise<BackendMessage[]> {
  const { messages } = await pglite.execProtocol(message, { syncToFs: false });
  into.push(...messages);
  return messages;
}

/**
 * Parses `text` as the statement `name` and describes it. The caller holds the protocol lock and
 * sends the Sync that ends the cycle.
 */
export async function prepare(pglite: PGlite, name: string, text: string, into: BackendMessage[]): Promise<PreparedStatement> {
  const { serialize } = protocol;
  // Closing first makes a statement left half-prepared by a failed earlier attempt harmless.
  await send(pglite, serialize.close({ type: "S", name }), into);
  await send(pglite, serialize.parse({ name, text, types: [] }), into);
  const described = await send(pglite, serialize.describe({ type: "S", name }), into);
  const parameters = described.find((m) => m.name === "parameterDescription") as { dataTypeIDs: number[] } | undefined;
  return { name, text, paramTypes: parameters?.dataTypeIDs ?? [], rowDescription: described.find((m) => m.name === "rowDescription") ?? null };
}

/**
 * The statement's parameters as Bind carries them, by the types Postgres described. Before anything
 * is sent: a value that cannot be serialized throws while the cycle still needs its Sync.
 */
function bindValues(pglite: PGlite, statement: PreparedStatement, params: unknown[], serializers?: QueryOptions["serializers"]): (string | null)[] {
  return params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = serializers?.[statement.paramTypes[i]!] ?? pglite.serializers[statement.paramTypes[i]!];
    return serializer ? serializer(value) : String(value);
  });
}

/** The protocol messages as one buffer: PGlite's main loop reads them in order, as from a socket. */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Runs a prepared statement with its bound values: Bind, Execute and Sync as one buffer, answered
 * into `into` after the statement's row description. The caller holds the protocol lock. No
 * Describe per execution: the columns were described when the statement was prepared (text format,
 * as a portal of it has), and describing them again was a second trip through Postgres and PGlite's
 * parser for each call.
 */
async function execute(pglite: PGlite, statement: PreparedStatement, values: (string | null)[], into: BackendMessage[]): Promise<void> {
  const { serialize } = protocol;
  if (statement.rowDescription) into.push(statement.rowDescription);
  const chunks: Uint8Array[] = [];
  // The answer as Postgres wrote it, copied out of the wasm memory (valid only during the call).
  await pglite.execProtocolRawStream(concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]), {
    syncToFs: false,
    onRawData: (bytes) => chunks.push(bytes.slice()),
  });
  readBackendMessages(chunks.length === 1 ? chunks[0]! : concat(chunks), into);
}

const DATA_ROW = 0x44;

/**
 * The backend messages in `data`, into `into`; throws the first error Postgres reported, as
 * execProtocol does. Data rows are read here, each field decoded straight from the answer's buffer:
 * the protocol parser PGlite uses copies every field into an ArrayBuffer of its own before decoding
 * it, which was most of PGlite's JavaScript time on a page of rows. Every other message goes
 * through that parser.
 */
export function readBackendMessages(data: Uint8Array, into: BackendMessage[]): void {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const parser = new protocol.Parser();
  let error: unknown;
  let at = 0;
  while (at + 5 <= buffer.length) {
    const length = buffer.readUInt32BE(at + 1);
    const end = at + 1 + length;
    if (end > buffer.length) throw new Error("a backend message ends past the answer");
    if (buffer[at] === DATA_ROW) {
      const count = buffer.readUInt16BE(at + 5);
      const fields: (string | null)[] = new Array(count);
      let p = at + 7;
      for (let i = 0; i < count; i++) {
        const size = buffer.readInt32BE(p);
        p += 4;
        if (size === -1) {
          fields[i] = null;
        } else {
          fields[i] = buffer.toString("utf8", p, p + size);
          p += size;
        }
      }
      into.push(new messages.DataRowMessage(length, fields as string[]));
    } else {
      parser.parse(buffer.subarray(at, end), (message) => {
        if (message instanceof messages.DatabaseError) error ??= message;
        else into.push(message);
      });
    }
    at = end;
  }
  if (error) throw error;
}

/**
 * One extended-protocol cycle of a prepared statement, answered as messages: `statementFor` finds
 * it or prepares it (its messages into the answer), the parameters are bound, and Bind, Execute and
 * Sync run it. Sync ends the cycle (and its implicit transaction) whatever happened before it: it
 * travels with Execute, or on its own when the cycle ended early, a value that cannot be serialized
 * included. The caller holds the protocol lock.
 */
export async function runPrepared(
  pglite: PGlite,
  statementFor: (into: BackendMessage[]) => Promise<PreparedStatement>,
  params: unknown[],
  serializers?: QueryOptions["serializers"],
): Promise<BackendMessage[]> {
  const messages: BackendMessage[] = [];
  let synced = false;
  try {
    const statement = await statementFor(messages);
    const values = bindValues(pglite, statement, params, serializers);
    synced = true;
    await execute(pglite, statement, values, messages);
  } finally {
    if (!synced) await send(pglite, protocol.serialize.sync(), messages);
  }
  return messages;
}

export async function pgliteQueryNamed<T>(pglite: PGlite, name: string, text: string, params: unknown[]): Promise<T[]> {
  await pglite._checkReady();
  return pglite._runExclusiveTransaction(() =>
    pglite.runExclusive(async () => {
      const statements = namedStatementsOf(pglite);
      const messages = await runPrepared(
        pglite,
        async (into) => {
          const statement = statements.get(name);
          if (statement && statement.text !== text) {
            throw new Error(`the prepared statement "${name}" was prepared with another text`);
          }
          if (statement) return statement;
          const made = await prepare(pglite, name, text, into);
          statements.set(name, made);
          return made;
        },
        params,
      );
      // As query() ends an autocommit statement (a no-op on the Node file system, which writes
      // through at once; relaxedDurability makes it not awaited).
      await pglite.syncToFs();
      const [result] = parse.parseResults(messages, pglite.parsers);
      return (result?.rows ?? []) as T[];
    }),
  );
}
