/**
@module The presenters a replay uses: the reference tools' (and Code Mode's) with the ACP calls'
presenter for `acp_*` names, the provider-executed tools' for `provider_*` names and the MCP card for `mcp__*` names. Nothing executes: a saved log is shown as its producer's tools would
show it. Here because this is the lowest layer that sees both the reference tools (`src/builtin`)
and ACP calls (and other agents' calls, src/session/foreign); the replay, the pager, watch and the live screens' history all take it from here.
*/
import {builtinTools, codeModePresenter} from '../builtin/index.js';
import {withUndoPresenter} from '../builtin/fs/undo-card.js';
import {withProviderToolPresenter} from '../builtin/web/provider-tools.js';
import {withMcpPresenter} from '../builtin/mcp/mcp-card.js';
import {presentersOf, type PresenterLookup} from '../presentation/presenters.js';
import {withForeignPresenter} from '../session/foreign/foreign-presenter.js';
import {withAcpPresenter} from './acp-presenter.js';

/** Presenters of the reference tools, of ACP agents' calls and of other agents' sessions (`claude-code:Bash`), for a log whose workspace is `workspace`. */
export function referencePresenters(workspace: string): PresenterLookup {
	return withForeignPresenter(withAcpPresenter(withMcpPresenter(withUndoPresenter(withProviderToolPresenter(presentersOf([...builtinTools({workspace}).tools, codeModePresenter()]))))));
}
