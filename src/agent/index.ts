/**
@module The model-driven agent: the loop, the model client behind it, and the system prompt.
*/
export {AgentLoop, DEFAULT_MAX_STEPS, type AgentLoopOptions, type AgentTurnOutcome} from './agent-loop.js';
export {Conversation} from './conversation.js';
export {ModelConfigError, PROVIDER_NAMES, resolveModel, type ModelOptions} from './model-client.js';
export type {ConversationMessage, ModelClient, ModelError, ModelStreamPart, ModelUsage} from './model-types.js';
export {DEFAULT_RETRY_POLICY, type RetryPolicy} from './retry-policy.js';
export {readAgentsFile, systemPrompt} from './system-prompt.js';
