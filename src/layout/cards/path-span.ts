/**
@module A file path in a card: shown relative to the session's cwd when it lies inside it, linked to
its `file://` URL when it can be resolved. One rule for every card that names files.
*/
import * as path from 'node:path';
import type {BodyContext} from './body-text.js';
import {fileLinkTarget} from '../text/link-target.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span} from '../text/spans.js';
import type {Span, Style} from '../text/styled-line.js';

/** A path relative to the session cwd when it lies inside it, else as given. */
export function displayPath(filePath: string, sessionCwd: string | undefined): string {
	if (sessionCwd === undefined || !path.posix.isAbsolute(filePath)) {
		return filePath;
	}

	const relative = path.posix.relative(sessionCwd, filePath);
	return relative !== '' && !relative.startsWith('..') && !path.posix.isAbsolute(relative) ? relative : filePath;
}

/** The path as a span in `style` (the path role by default), linked when it resolves. */
export function pathSpan(filePath: string, context: Pick<BodyContext, 'sessionCwd' | 'theme'>, style: Style = context.theme.path): Span {
	const absolute = path.posix.isAbsolute(filePath) ? filePath : context.sessionCwd === undefined ? undefined : path.posix.resolve(context.sessionCwd, filePath);
	return span(sanitizeInline(displayPath(filePath, context.sessionCwd)), style, absolute === undefined ? undefined : fileLinkTarget(absolute));
}
