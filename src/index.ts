/**
@module cardterm's public API. See README.md and docs/ARCHITECTURE (shared) §3.
*/
export * from './json/index.js';
export * from './tools/content.js';
export type * from './tools/views.js';
export type * from './tools/types.js';
export type * from './presentation/card.js';
export type * from './layout/styled-line.js';
export type * from './session/events.js';
