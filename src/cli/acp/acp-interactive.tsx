/**
@module The interactive front end of `cardterm acp`.
*/
import type {CliIo} from '../cli-io.js';
import {UsageError} from '../parse-args.js';
import type {AcpSessionOptions} from './open-acp-session.js';

export async function acpInteractive(_options: Omit<AcpSessionOptions, 'approve'> & {readonly yolo: boolean}, _io: CliIo): Promise<number> {
	throw new UsageError('acp: the interactive session is not built yet; use -p PROMPT');
}
