/** A value that survives a JSON round trip byte-identically (see `snapshotJsonValue`). */
export type JsonValue = null | boolean | number | string | JsonValue[] | {[key: string]: JsonValue};

/** A JSON object. */
export type JsonObject = {[key: string]: JsonValue};
