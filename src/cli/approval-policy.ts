/**
@module The configuration's former home, kept so that callers of these names still compile: the
approval rules and the config loader live in `src/config/` now.
*/
export {approvalPolicy, askReason, type AskRule} from '../config/approval-rules.js';
export {loadConfig, type CardtermConfig} from '../config/load-config.js';
