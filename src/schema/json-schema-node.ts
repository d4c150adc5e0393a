/** A raw JSON Schema node of the supported subset (contract.md §T1.6). */
export type JsonSchemaNode = {readonly [keyword: string]: unknown};
