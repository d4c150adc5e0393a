/**
@module cardterm's public API: the tool contract, sessions and their logs,
the reference tools, and pure card layout. Snapshot helpers for tool authors are in `cardterm/testing`.
*/

// Lossless JSON.
export * from './json/index.js';

// Schema DSL.
export * from './schema/index.js';

// The tool contract.
export {defineTool, type DefineToolOptions, type DefinedTool} from './tools/define-tool.js';
export {ToolRegistry, runCodeToolName, type ToolRegistryOptions, type ToolMode, type ToolConcurrency, type HookListenerOptions} from './tools/registry.js';
export type {PreExecuteListener, ExecuteListener, PostExecuteListener, ResultListener, ToolGuard, ToolHookName} from './tools/registry-hooks.js';
export {HarnessError, ToolArgsError, ToolOutputError, ToolNotFoundError, ToolResultError, CodeRunFailedError} from './tools/errors.js';
export * from './tools/content.js';
export type * from './tools/views.js';
export type * from './tools/types.js';

// Cards.
export type * from './presentation/card.js';
export {cardToJson, type CardJson} from './presentation/card-json.js';
export {presentersOf, type Presenter, type PresenterLookup} from './presentation/presenters.js';
export {assertNever} from './presentation/assert-never.js';

// Sessions: events, the log, the fold, the runtime.
export type * from './session/events/events.js';
export {openSessionLog, readSessionLog, type OpenedSessionLog, type ReadSessionLogOptions} from './session/reader/read-session-log.js';
export {followSessionLog, type FollowSessionLogOptions} from './session/reader/follow-session-log.js';
export {SessionLogWriter, type SessionLogWriterOptions} from './session/recorder/log-writer.js';
export {SessionLogError, SessionLogWriteError, SessionLogLockedError, type LogDiagnostic} from './session/reader/log-errors.js';
export {SessionFold, foldEvents, type FoldChange, type FoldNote} from './session/fold/fold.js';
export {EventLog, type EventDraft} from './session/events/event-log.js';
export {SessionRuntime, type StepHandle, type ApprovalPrompt} from './session/recorder/session-runtime.js';

// Reference tools, background jobs and Code Mode.
export {builtinTools, attachCodeMode, type BuiltinToolsOptions} from './builtin/index.js';
export {JobRuntime} from './jobs/job-runtime.js';
export {codeModeTransport} from './code-mode/run-code-tool.js';

// Pure layout.
export {layoutCard} from './layout/cards/layout-card.js';
export {renderCardText, renderLines, type RenderOptions} from './layout/terminal/render-lines.js';
export {colorTheme, monochromeTheme, type Theme} from './layout/text/theme.js';
export type {Expansion, LayoutOptions} from './layout/text/layout-options.js';
export type * from './layout/text/styled-line.js';
export {displayWidth, truncateToWidth, wrapToWidth} from './layout/text/text-width.js';
