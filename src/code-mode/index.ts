/**
@module Code Mode (tools-contract.md §6): the `run_code` transport, its sub-call events, and the
script-file runner behind `cardterm run SCRIPT.mjs`.
*/
export {codeModeTransport, presentRunCodeCall, readRunCodeArgs, runCodeToolName, type CodeModeTransportOptions} from './run-code-tool.js';
export type {CodeDispatchData, CodeDispatchEvent, CodeDispatchStartData, CodeModeExecutor} from './code-mode-types.js';
export {formatRunCodeResult, renderRunCode, type RunCodeValue} from './render-run-code.js';
export type {CodeRunFailureKind} from './program-worker.js';
export {runScriptFile, scriptToProgram, ScriptFileError, type RunScriptFileOptions} from './script-file.js';
export {codeModeSdk, sdkToolsFrom, type SdkTool, type SdkToolSource} from './code-mode-sdk.js';
export {jsonSchemaToTs} from './json-schema-to-ts.js';
