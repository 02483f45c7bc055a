const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUID columns: anything else cannot exist, and must not reach the database as a cast error. */
export const isUuid = (value: string): boolean => UUID.test(value);
