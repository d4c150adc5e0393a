export type {JsonValue, JsonObject} from './json-value.js';
export {snapshotJsonValue, isLosslessJson, type JsonSnapshot} from './snapshot-json.js';
export {deepFreeze} from './deep-freeze.js';
export {isPlainRecord, isIntrinsicArray} from './is-plain-record.js';
export {stableStringify} from './stable-stringify.js';
