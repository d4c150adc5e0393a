/** A raw JSON Schema node of the supported subset (tools-contract.md §1.6). */
export type JsonSchemaNode = {readonly [keyword: string]: unknown};
