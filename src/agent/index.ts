/**
@module The model-driven agent: the loop, the model client behind it, and the system prompt.
*/
export {AgentLoop, DEFAULT_MAX_STEPS, type AgentLoopOptions, type AgentTurnOutcome} from './agent-loop.js';
export {Conversation} from './conversation.js';
export {ModelConfigError, PROVIDER_NAMES, resolveModel, type ModelOptions} from './model-client.js';
export type {ConversationMessage, ModelClient, ModelError, ModelErrorKind, ModelStreamPart, ModelUsage} from './model-types.js';
export {DEFAULT_LONG_WAIT_MS, DEFAULT_RETRY_POLICY, type RetryPolicy} from './retry-policy.js';
export {DEFAULT_STALL_TIMEOUT_MS} from './stall-guard.js';
export {readAgentsFile, systemPrompt} from './system-prompt.js';
