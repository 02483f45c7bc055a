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
// buffer (bindExecuteSync), which its main loop works through message by message as a client's
// pipelined packet, and the answer is read here: as rows for rawQuery (rowsOf), as messages for the
// statement cache (readBackendMessages). Parameters are serialized and values parsed
// as `query()` does: by the types Postgres describes (once, when the statement is prepared), with
// the instance's own serializers and parsers.
import { messages, protocol, types, type PGlite, type QueryOptions } from "@electric-sql/pglite";

export type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];

export interface PreparedStatement {
  name: string;
  text: string;
  paramTypes: number[];
  /** The statement's result columns as Postgres described them once (null when it returns no rows). */
  rowDescription: BackendMessage | null;
  /** Each result column's name and value parser, resolved on the first rows read (rowsOf). */
  rowShape?: RowShape;
}

interface RowShape {
  columns: Column[];
  /**
   * A column named __proto__ would set the row's prototype by assignment; Object.fromEntries
   * (parseResults) defines it as a property, so such a statement's rows are built that way.
   */
  defines: boolean;
}

interface Column {
  name: string;
  dataTypeID: number;
  parse: ((value: string, typeId: number) => unknown) | undefined;
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

const BIND = 0x42;
const EXECUTE = 0x45;
const SYNC = 0x53;

/**
 * Bind (the unnamed portal, every parameter and column in text format), Execute (every row) and
 * Sync as one buffer, written here rather than by PGlite's serializer: its writer grew and copied
 * buffers per message, counted each value's UTF-8 bytes in JavaScript, and kept its fields as
 * down-levelled private members (a WeakMap entry each): 5% of the server's CPU on an embedded
 * refresh (docs/benchmarks.md, "The embedded database"). Zero format codes mean text for all
 * (the protocol's default), as PGlite's one text code per parameter does.
 */
export function bindExecuteSync(statement: string, values: readonly (string | null)[]): Buffer {
  const nameBytes = Buffer.byteLength(statement, "utf8");
  const valueBytes = values.map((v) => (v === null ? -1 : Buffer.byteLength(v, "utf8")));
  let bindLength = 4 + 1 + nameBytes + 1 + 2 + 2 + 2;
  for (const n of valueBytes) bindLength += 4 + Math.max(n, 0);
  const out = Buffer.allocUnsafe(1 + bindLength + 10 + 5);
  let at = out.writeUInt8(BIND, 0);
  at = out.writeInt32BE(bindLength, at);
  at = out.writeUInt8(0, at); // the unnamed portal
  at += out.write(statement, at, "utf8");
  at = out.writeUInt8(0, at);
  at = out.writeUInt16BE(0, at); // parameter format codes: none, all text
  at = out.writeUInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    at = out.writeInt32BE(valueBytes[i]!, at);
    if (values[i] !== null) at += out.write(values[i]!, at, "utf8");
  }
  at = out.writeUInt16BE(0, at); // result format codes: none, all text
  at = out.writeUInt8(EXECUTE, at);
  at = out.writeInt32BE(9, at);
  at = out.writeUInt8(0, at); // the unnamed portal
  at = out.writeInt32BE(0, at); // every row
  at = out.writeUInt8(SYNC, at);
  out.writeInt32BE(4, at);
  return out;
}

/**
 * Runs a prepared statement with its bound values: Bind, Execute and Sync as one buffer; returns
 * Postgres's answer as it wrote it. The caller holds the protocol lock. No Describe per execution:
 * the columns were described when the statement was prepared (text format, as a portal of it has),
 * and describing them again was a second trip through Postgres and PGlite's parser for each call.
 */
async function execute(pglite: PGlite, statement: PreparedStatement, values: (string | null)[]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  // The answer, copied out of the wasm memory (valid only during the call).
  await pglite.execProtocolRawStream(bindExecuteSync(statement.name, values), {
    syncToFs: false,
    onRawData: (bytes) => chunks.push(bytes.slice()),
  });
  return chunks.length === 1 ? chunks[0]! : concat(chunks);
}

const DATA_ROW = 0x44;
const BIND_COMPLETE = 0x32;
const COMMAND_COMPLETE = 0x43;
const NO_DATA = 0x6e;
const READY_FOR_QUERY = 0x5a;

/**
 * Walks the backend messages in `data`: `row` gets each data row's offset and length, `other` every
 * other message; throws the first error Postgres reported, as execProtocol does. Data rows are read
 * straight from the answer's buffer: the protocol parser PGlite uses copies every field into an
 * ArrayBuffer of its own before decoding it, which was most of PGlite's JavaScript time on a page of
 * rows. So are the messages that end every execution (BindComplete, CommandComplete, NoData,
 * ReadyForQuery), as the same objects that parser makes: a parser made per answer for them cost
 * more than the statement's own fields. Every other message (an error, a notice) goes through it.
 */
function walkAnswer(data: Uint8Array, row: (buffer: Buffer, at: number, length: number) => void, other: (message: BackendMessage) => void): void {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let parser: InstanceType<typeof protocol.Parser> | undefined;
  let error: unknown;
  let at = 0;
  while (at + 5 <= buffer.length) {
    const code = buffer[at]!;
    const length = buffer.readUInt32BE(at + 1);
    const end = at + 1 + length;
    if (end > buffer.length) throw new Error("a backend message ends past the answer");
    if (code === DATA_ROW) {
      row(buffer, at, length);
    } else if (code === BIND_COMPLETE && length === 4) {
      other(messages.bindComplete);
    } else if (code === NO_DATA && length === 4) {
      other(messages.noData);
    } else if (code === COMMAND_COMPLETE && length > 4 && buffer[end - 1] === 0 && buffer.indexOf(0, at + 5) === end - 1) {
      other(new messages.CommandCompleteMessage(length, buffer.toString("utf8", at + 5, end - 1)));
    } else if (code === READY_FOR_QUERY && length === 5) {
      other(new messages.ReadyForQueryMessage(length, buffer.toString("utf8", at + 5, at + 6)));
    } else {
      (parser ??= new protocol.Parser()).parse(buffer.subarray(at, end), (message) => {
        if (message instanceof messages.DatabaseError) error ??= message;
        else other(message);
      });
    }
    at = end;
  }
  if (error) throw error;
}

/** The backend messages in `data`, into `into`, as PGlite's parser makes them (walkAnswer). */
export function readBackendMessages(data: Uint8Array, into: BackendMessage[]): void {
  walkAnswer(
    data,
    (buffer, at, length) => {
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
    },
    (message) => into.push(message),
  );
}

function rowShapeOf(statement: PreparedStatement, parsers: PGlite["parsers"]): RowShape {
  const described = (statement.rowDescription as { fields?: { name: string; dataTypeID: number }[] } | null)?.fields ?? [];
  const columns = described.map(({ name, dataTypeID }) => ({ name, dataTypeID, parse: parsers[dataTypeID] ?? types.parsers[dataTypeID] }));
  return { columns, defines: columns.some((c) => c.name === "__proto__") };
}

/**
 * The rows in `data` as objects, each value parsed by its column's type, as `query()` makes them
 * (PGlite's parseResults): built straight from the answer, with no message object or array of
 * fields per row in between (a page of 400 subscriptions allocated 1 MB of them per request,
 * docs/benchmarks.md "Memory"). Throws the first error Postgres reported.
 */
export function rowsOf<T>(pglite: PGlite, statement: PreparedStatement, data: Uint8Array): T[] {
  const { columns, defines } = (statement.rowShape ??= rowShapeOf(statement, pglite.parsers));
  const rows: T[] = [];
  walkAnswer(
    data,
    (buffer, at) => {
      const count = buffer.readUInt16BE(at + 5);
      if (count !== columns.length) throw new Error(`a row of ${count} values answered a statement of ${columns.length} columns`);
      const row: Record<string, unknown> = {};
      let p = at + 7;
      for (let i = 0; i < count; i++) {
        const size = buffer.readInt32BE(p);
        p += 4;
        const column = columns[i]!;
        let value: unknown = null;
        if (size !== -1) {
          const text = buffer.toString("utf8", p, p + size);
          value = column.parse ? column.parse(text, column.dataTypeID) : text;
          p += size;
        }
        if (defines) Object.defineProperty(row, column.name, { value, enumerable: true, writable: true, configurable: true });
        else row[column.name] = value;
      }
      rows.push(row as T);
    },
    () => {},
  );
  return rows;
}

/**
 * One extended-protocol cycle of a prepared statement: `statementFor` finds it or prepares it (its
 * messages into the answer), the parameters are bound, and Bind, Execute and Sync run it. Sync ends
 * the cycle (and its implicit transaction) whatever happened before it: it travels with Execute, or
 * on its own when the cycle ended early, a value that cannot be serialized included. The execution's
 * answer goes to `read` when given, else into the messages returned after the statement's row
 * description. The caller holds the protocol lock.
 */
export async function runPrepared(
  pglite: PGlite,
  statementFor: (into: BackendMessage[]) => Promise<PreparedStatement>,
  params: unknown[],
  serializers?: QueryOptions["serializers"],
  read?: (answer: Uint8Array, statement: PreparedStatement) => void,
): Promise<BackendMessage[]> {
  const messages: BackendMessage[] = [];
  let synced = false;
  try {
    const statement = await statementFor(messages);
    const values = bindValues(pglite, statement, params, serializers);
    synced = true;
    const answer = await execute(pglite, statement, values);
    if (read) {
      read(answer, statement);
    } else {
      if (statement.rowDescription) messages.push(statement.rowDescription);
      readBackendMessages(answer, messages);
    }
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
      let rows: T[] = [];
      await runPrepared(
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
        undefined,
        (answer, statement) => (rows = rowsOf<T>(pglite, statement, answer)),
      );
      // As query() ends an autocommit statement (a no-op on the Node file system, which writes
      // through at once; relaxedDurability makes it not awaited).
      await pglite.syncToFs();
      return rows;
    }),
  );
}
